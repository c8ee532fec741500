"""The shared cache as a dataset: a team's Redis cache exports to the same Parquet tables as a SQLite cache does,
and the cache's reads behind the export (``client.cache.read`` / ``scan``) read Redis as they read SQLite — former
ids (redirects) included."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "frames"))

from export_support import API_KEY, TABLE_NAMES, expected_tables, fill_cache, pick_ids

import regkit
from regkit.client.lookups import lookup_op

pytest.importorskip("pyarrow.parquet", reason="the Parquet export needs pyarrow (pip install pyarrow)")


@pytest.fixture
def redis_client(served: Any, redis: Any) -> Any:
    client = regkit.Client(api_key=API_KEY, base_url=served.url, cache=redis.url)
    yield client
    client.close()


def test_a_redis_cache_exports_the_tables_of_the_records(redis_client: Any, world: Any, tmp_path: Path) -> None:
    fetched = fill_cache(redis_client, pick_ids(world))
    spent = redis_client.credits_spent
    manifest = redis_client.export_parquet(tmp_path / "dataset")
    assert redis_client.credits_spent == spent and manifest["requests_sent"] == 0
    assert manifest["cache"]["location"].startswith("redis://***@")  # the password is not in the manifest
    expected = expected_tables(fetched)
    for table in (t for t in TABLE_NAMES if t not in {"sources", "versions", "changes"}):
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "dataset" / table), expected[table], obj=table)
    for path in (tmp_path / "dataset").rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert API_KEY.encode() not in data and b"Redis-pa55" not in data, path


def test_reads_of_redis_follow_former_ids(redis_client: Any, world: Any) -> None:
    ids = pick_ids(world)
    record = redis_client.get_company(ids["moved"])
    asked = {
        name: redis_client._caller.cache_key(lookup_op("company", cid, False, export=False))
        for name, cid in (("current", ids["moved"]), ("former", ids["former"]), ("never", ids["ag"]))
    }
    found = redis_client.cache.read(asked.values())
    assert set(found) == {asked["current"], asked["former"]}  # the former id is a redirect to the same answer
    assert found[asked["former"]].body == found[asked["current"]].body
    assert json.loads(found[asked["former"]].body)["id"] == record.raw["id"]
    scanned = list(redis_client.cache.scan())
    assert [a.url.rsplit("/", 1)[-1] for a in scanned] == [ids["moved"]]
