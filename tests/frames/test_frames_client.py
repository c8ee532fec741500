"""Integration: the client's records offer the frames, and ``insolvencies`` pages through the local register."""

from __future__ import annotations

import pandas as pd
import pytest

import regkit
from regkit.client import BudgetExceededError
from regkit.frames import (companies_frame, events, history, insolvencies, insolvency_results, proceedings)  # fmt: skip

OPENED = [{"field": "current_status", "value": "opened"}]


@pytest.fixture()
def client(isolated_env):
    """A client of the in-process local register, no cache, state in a temporary directory."""
    with regkit.Client(cache=False) as c:
        yield c


def test_company_record_methods(client, world):
    record = client.get_company("DE-HRB-X1112-22145FL")
    raw = world.companies["DE-HRB-X1112-22145FL"]
    pd.testing.assert_frame_equal(record.history("capitals"), history(raw, "capitals"))
    pd.testing.assert_frame_equal(record.to_dataframe(), companies_frame(raw))
    if hasattr(record, "_repr_html_"):
        assert "Alpenblick Holding GmbH" in record._repr_html_()


def test_batch_to_dataframe(client):
    ids = ["DE-HRB-M1301-153410", "DE-HRB-M1301-174150"]
    batch = client.get_companies(ids, progress=False)
    frame = batch.to_dataframe()
    assert frame["company_id"].tolist() == ids
    pd.testing.assert_frame_equal(frame, companies_frame([r.raw for r in batch.ok]))


def test_insolvency_records(client, world):
    page = client.search_insolvencies(per_page=5)
    pd.testing.assert_frame_equal(page.to_dataframe(), insolvency_results(page.raw))
    record = client.get_insolvency("e63a27ea-ba62-41b7-b35b-03835b079051")
    pd.testing.assert_frame_equal(record.events(), events(record.raw))
    pd.testing.assert_frame_equal(record.to_dataframe(), proceedings(record.raw))
    assert record.events()["event_type"].iloc[-1] == "discharge_granted"


def test_insolvencies_pages_and_matches_iter_insolvencies(client, world):
    expected = sum(p["current_status"] == "opened" for p in world.insolvencies.values())
    frame = insolvencies(client, filters=OPENED, progress=False)
    assert len(frame) == frame.attrs["total_results"] == expected
    assert frame.attrs["pages"] == -(-expected // 100) and frame.attrs["credits"] == 10 * frame.attrs["pages"]
    assert set(frame["current_status"]) == {"opened"} and frame["id"].is_unique
    lazily = insolvency_results(client.iter_insolvencies(filters=OPENED, per_page=100))
    pd.testing.assert_frame_equal(frame, lazily)


def test_insolvencies_limit_fetches_only_the_pages_needed(client):
    frame = insolvencies(client, limit=150, progress=False)
    assert len(frame) == 150 and frame.attrs["pages"] == 2 and client.credits_spent == 20
    assert insolvencies(client, limit=0, progress=False).empty and client.credits_spent == 20


def test_insolvencies_refuses_to_cross_the_budget_after_the_first_page(isolated_env):
    with regkit.Client(cache=False, budget=35) as client:
        with pytest.raises(BudgetExceededError, match="insolvencies") as caught:
            insolvencies(client, progress=False)  # 1,440 proceedings: 15 pages, 140 credits more
        assert client.credits_spent == 10 and caught.value.needed == 140
        frame = insolvencies(client, limit=200, progress=False)  # page 1 leaves 15, page 2 costs 10
        assert len(frame) == 200 and frame.attrs["estimated_credits"] == 10 and client.credits_spent == 30


def test_every_company_record_method_equals_its_frames_function(client, world):
    from regkit import frames

    company_id = "DE-HRB-M1301-153410"  # acquirer of several mergers in one transaction (data/README.md)
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
    assert len(record.links()) == len(raw["acquisitions"]) + bool(raw["profit_transfer_agreement"]) + len(raw["asset_spin_offs"])


def test_every_batch_method_equals_the_frames_of_its_records(client, world):
    from regkit import frames

    ids = ["DE-HRB-M1301-153410", "DE-HRB-M1301-174150", "DE-HRB-R1901-220191"]
    batch = client.get_companies(ids, progress=False)
    raws = [world.companies[i] for i in ids]
    pd.testing.assert_frame_equal(batch.history("names"), frames.history(raws, "names"))
    pd.testing.assert_frame_equal(batch.representatives(), frames.representatives(raws))
    pd.testing.assert_frame_equal(batch.indicators(), frames.indicators(raws))
    pd.testing.assert_frame_equal(batch.links(), frames.links(raws))
    pd.testing.assert_frame_equal(batch.panel(), frames.panel(raws))
