"""A refreshed answer keeps the one it replaced as a version, and ``client.changes`` compares them for free.

The bundled register's world stands still, so the answer the cache held before is made here the way the register
would have served it before an event — the company under its former name, stored with an expiry in the past — and
the client then fetches the company again, as it does for an expired answer.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from versions_support import store_older

from regkit import CachePolicy, Client
from regkit.errors import ValidationError

WHEN = datetime(2026, 1, 15, 9, 30, tzinfo=timezone.utc)


def _client(cache: Any, **options: Any) -> Client:
    return Client(cache=cache, ledger_file=None, quiet=True, **options)  # the bundled register, in-process


def _company_id(client: Client) -> str:
    return client.search_companies("GmbH", per_page=1).results[0]["company_id"]


def _store_older(client: Client, edit: Any, fetched_at: datetime = WHEN) -> dict[str, Any]:
    return store_older(client, edit, fetched_at)


def _rename(answer: dict[str, Any]) -> None:
    answer["name"] = {**answer["name"], "name": "Altname Verwaltungs GmbH", "start_date": "1999-01-01"}


@pytest.mark.parametrize("cache", ["sqlite", "memory"])
def test_a_refreshed_answer_keeps_the_one_it_replaced_and_changes_compares_them_for_free(
    tmp_path: Path, cache: str
) -> None:
    client = _client(tmp_path / "cache.sqlite" if cache == "sqlite" else "memory")
    company_id = _company_id(client)
    client.get_company(company_id)
    assert client.changes(company_id).empty  # one answer: nothing to compare
    _store_older(client, _rename)
    spent = client.credits_spent
    now = client.get_company(company_id)  # expired: fetched again, and paid
    assert client.credits_spent == spent + 10 and not now.meta.from_cache
    rows, requests = len(client.ledger), client.requests_sent
    frame = client.changes(company_id)
    assert len(client.ledger) == rows and client.requests_sent == requests and client.credits_spent == spent + 10
    assert frame[["entity_id", "operation", "category", "kind", "field", "before", "after"]].values.tolist() == [
        [
            company_id,
            "get_company",
            "basic",
            "name_changed",
            "name",
            "Altname Verwaltungs GmbH",
            now.raw["name"]["name"],
        ]
    ]
    assert frame.loc[0, "fetched_before"] == WHEN and frame.loc[0, "fetched_after"] > WHEN
    assert frame.loc[0, "date"] == pd.Timestamp(now.raw["name"]["start_date"])
    assert str(frame["fetched_before"].dtype) == "datetime64[us, UTC]"
    client.close()


def test_the_versions_live_in_the_cache_file_and_are_bounded(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    client = _client(path, policy=CachePolicy(versions=2))
    company_id = _company_id(client)
    client.get_company(company_id)
    for year in (2001, 2002, 2003):  # three renames, each fetched again: three versions made, the newest two kept
        _store_older(
            client, lambda a, y=year: a.update(name={**a["name"], "name": f"Name {y} GmbH"}), WHEN.replace(year=year)
        )
        client.get_company(company_id)
    client.close()
    reopened = _client(path, offline=True)  # another client on the same file, offline: nothing can be sent
    before = reopened.changes(company_id)["before"].tolist()
    assert before == ["Name 2002 GmbH", "Name 2003 GmbH"]  # each older answer against the next; 2001 was dropped
    reopened.cache.clear()
    assert reopened.changes(company_id).empty  # clearing the cache clears its versions
    reopened.close()


def test_an_answer_that_differs_only_in_its_presigned_urls_is_no_change(tmp_path: Path) -> None:
    client = _client(tmp_path / "cache.sqlite")
    company_id = _company_id(client)
    client.get_company(company_id)
    _store_older(client, lambda a: a.update(sources=[{"document_url": "https://old.example/x", "expires_at": "2026"}]))
    client.get_company(company_id)
    assert client.changes(company_id).empty
    client.close()


def test_no_version_is_kept_when_the_policy_keeps_none(tmp_path: Path) -> None:
    client = _client(tmp_path / "cache.sqlite", policy=CachePolicy(versions=0))
    company_id = _company_id(client)
    client.get_company(company_id)
    _store_older(client, _rename)
    client.get_company(company_id)
    assert client.changes(company_id).empty
    client.close()


def test_marking_an_entity_stale_has_its_next_lookup_fetched_and_its_older_answer_kept(tmp_path: Path) -> None:
    client = _client(tmp_path / "cache.sqlite")
    company_id = _company_id(client)
    client.get_company(company_id)
    client.get_owners(company_id)
    spent, requests = client.credits_spent, client.requests_sent
    assert client.mark_stale(company_id) == 2  # the record and the owners: free, nothing sent
    assert (client.credits_spent, client.requests_sent) == (spent, requests)
    assert client.mark_stale(company_id) == 0  # already stale
    assert not client.get_company(company_id).meta.from_cache and client.credits_spent == spent + 10
    assert client.get_company(company_id).meta.from_cache  # fresh again
    assert client.changes(company_id).empty  # the register's world stood still: nothing changed
    client.close()


def test_bad_arguments_are_refused_before_anything_is_read() -> None:
    client = _client("memory")
    with pytest.raises(ValidationError, match="company id .* or the UUID"):
        client.changes("HRB 1234 Kassel")
    with pytest.raises(ValidationError, match="company id .* or the UUID"):
        client.mark_stale("Alpha GmbH")
    with pytest.raises(ValidationError, match="unknown categories"):
        client.changes("DE-HRB-B1234-1", categories=["names"])
    with pytest.raises(ValidationError, match=r"versions=\.\.\.\) must be a whole number"):
        CachePolicy(versions=-1)
    client.close()


def test_the_parquet_export_holds_the_versions_and_their_changes(make_local: Any, tmp_path: Path) -> None:
    """On a register whose world moves on: the answer a refresh replaced is in ``versions``, and what changed is in
    ``changes``, the same as ``client.changes`` says."""
    import json as json_module

    from regkit.local.models.world_day import continuation_of

    local = make_local()
    client = local.client()
    register = local.register
    events = continuation_of(register.context.catalog).events(register.today, register.today.replace(month=9))
    stored = register.context.catalog.world.companies
    renamed = next(  # a company with filed articles: the renaming supersedes them (a change with no "after")
        e
        for e in events
        if e.kind == "name_changed"
        and any(d["type"] == "articles_of_association" for d in stored[e.company_id]["documents"])
    )
    company_id = renamed.company_id
    first = client.get_company(company_id).raw
    register.advance((renamed.day - register.today).days)
    client.mark_stale(company_id)
    now = client.get_company(company_id).raw
    assert first["name"] != now["name"]
    manifest = client.export_parquet(tmp_path / "dataset")
    assert manifest["tables"]["versions"]["rows"] == 1 and manifest["tables"]["changes"]["rows"] >= 1
    versions = pd.read_parquet(tmp_path / "dataset" / "versions")
    assert versions["entity_id"].tolist() == [company_id] and versions["kind"].tolist() == ["company"]
    assert json_module.loads(versions.loc[0, "body"]) == first
    exported = pd.read_parquet(tmp_path / "dataset" / "changes")
    expected = client.changes(company_id)
    assert exported[["entity_id", "operation", "category", "kind", "field"]].astype(str).values.tolist() == (
        expected[["entity_id", "operation", "category", "kind", "field"]].astype(str).values.tolist()
    )

    # JSON text, NaN for null (a superseded document has no "after"), as the frame's NaN
    def null(value: Any) -> bool:
        return value is None or (isinstance(value, float) and value != value)

    read_back = [None if null(v) else json_module.loads(v) for v in exported["after"]]
    assert read_back == [None if null(v) else v for v in expected["after"]] and None in read_back
    assert exported["date"].tolist() == expected["date"].tolist()


def test_a_proceeding_is_marked_stale_and_its_new_events_are_changes(make_local: Any) -> None:
    from regkit.local.models.world_day import continuation_of

    local = make_local()
    client, register = local.client(), local.register
    events = continuation_of(register.context.catalog).events(register.today, register.today.replace(month=9))
    published = next(e for e in events if e.kind == "insolvency_event")
    proceeding_id = published.detail["insolvency_id"]
    first = client.get_insolvency(proceeding_id).raw
    register.advance((published.day - register.today).days)
    assert client.mark_stale(proceeding_id.upper()) == 1  # the proceeding's cached answer, whatever the case
    now = client.get_insolvency(proceeding_id).raw
    assert len(now["events"]) > len(first["events"])
    found = client.changes(proceeding_id)
    assert set(found["operation"]) == {"get_insolvency"} and "insolvency_event" in set(found["kind"])
