"""Derived dates in the history frames, through the real stack: the committed OffeneRegister sample imported into a
world, served by ``regkit serve`` over HTTP, fetched by ``regkit.Client`` (its requests session and cache), framed.

The import derives what the source lacks (the incorporation date, the dates of names and addresses, an officer's
missing start date); the register names those members in the ``X-Regkit-Derived`` header, the client keeps them with
the record (``record.derived``) and in its cache, and ``history`` marks the dates (``valid_from_derived``,
``valid_to_derived``). What is checked against the source is the sample's raw line, read here, not the importer's
mapping: an officer with a start date in the source has a start date that is the register's; one without, a
derived one. Answers of the bundled synthetic world carry no marks: every mark is False.
"""

from __future__ import annotations

import bz2
import gzip
import json
import re
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import requests

import regkit
from regkit.frames import history, representatives
from regkit.frames.histories import FIELDS
from regkit.local.world.offeneregister import import_offeneregister, sample_file
from regkit.local.world.world_store import StoredWorld
from regkit.schema.derived import HEADER, is_derived, parse_marks

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from serve_support import served_register

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _dated(value: Any) -> bool:
    return isinstance(value, str) and _DATE.fullmatch(value) is not None


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The committed sample imported into a world (its store built by the import)."""
    return import_offeneregister(sample_file(), tmp_path_factory.mktemp("derived") / "world", workers=0).directory


@pytest.fixture(scope="module")
def derived_rows(imported: Path) -> dict[str, list[str]]:
    """``derived.jsonl.gz`` as the import wrote it: company id → its derived members."""
    with gzip.open(imported / "derived.jsonl.gz", "rt", encoding="utf-8") as handle:
        return {row["id"]: row["derived"] for row in map(json.loads, handle)}


@pytest.fixture(scope="module")
def chosen(imported: Path) -> tuple[str, dict[str, Any]]:
    """A company of the world and its raw source record: former names, an officer with a start date in the source
    and one without, and its name and register number listed once in the sample (so the raw line is its own)."""
    with bz2.open(sample_file(), "rt", encoding="utf-8") as handle:
        sources = [json.loads(line) for line in handle if line.strip()]
    world = StoredWorld(imported / "store")
    by_key: dict[tuple[str, str], list[str]] = {}
    for company_id, record in world.companies.items():
        number = record["register"]["register_number"].replace(" ", "")
        by_key.setdefault((record["name"]["name"], number), []).append(company_id)
    keys = [(s["name"].strip(), str(s["all_attributes"].get("_registerNummer", "")).strip()) for s in sources]
    for source, key in zip(sources, keys):
        officers = [o for o in source.get("officers") or () if isinstance(o, dict)]
        if (
            source.get("previous_names")
            and any(_dated(o.get("start_date")) for o in officers)
            and any("start_date" not in o for o in officers)
            and any(_dated(o.get("end_date")) for o in officers)
            and keys.count(key) == 1
            and len(by_key.get(key, ())) == 1
        ):
            return by_key[key][0], source
    raise AssertionError("the sample has no company with both kinds of officer start dates")


@pytest.fixture(scope="module")
def served(imported: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """``regkit serve --data WORLD``, a process of its own, for the module."""
    with served_register(tmp_path_factory.mktemp("serve"), "--data", str(imported), "--rate-limit", "0") as server:
        yield server


def _check_officers(record: Any, source: dict[str, Any]) -> None:
    """Each officer's start date is marked derived exactly when the raw source line has none; a real one is the
    source's date; no end date is ever derived (they come from the source, or are null)."""
    officers = [o for o in source.get("officers") or () if isinstance(o, dict)]
    entries = record.raw["representation"]
    assert len(entries) == len(officers)
    real = derived = 0
    for index, (officer, entry) in enumerate(zip(officers, entries)):
        marked = is_derived(record.derived, f"representation[{index}].start_date")
        if _dated(officer.get("start_date")):
            assert not marked and entry["start_date"] == officer["start_date"]
            real += 1
        else:
            assert marked and entry["start_date"] == record.raw["incorporated_at"]
            derived += 1
        assert not is_derived(record.derived, f"representation[{index}].end_date")
        assert entry["end_date"] == (officer["end_date"] if _dated(officer.get("end_date")) else None)
    assert real and derived
    # the officers' frame says it too, row by row in the record's order
    frame = record.representatives()
    assert str(frame["start_date_derived"].dtype) == "bool"
    assert frame["start_date_derived"].tolist() == [not _dated(o.get("start_date")) for o in officers]
    assert not representatives(record.raw)["start_date_derived"].any()  # a plain dict carries no marks


def _check_histories(record: Any) -> None:
    """The history frames of an imported company: every name and the address start at the derived incorporation
    date, so every ``valid_from`` is marked; ``valid_to`` is too, but the newest version's (NaT)."""
    assert "incorporated_at" in record.derived and "names.start_date" in record.derived
    names = record.history("names")
    assert len(names) == len(record.raw["names"]) >= 2
    assert names["valid_from_derived"].all()
    assert names["valid_to_derived"].tolist() == [True] * (len(names) - 1) + [False]
    assert (names["valid_from"] == pd.Timestamp(record.raw["incorporated_at"])).all()
    addresses = record.history("addresses")  # marked through the current member: "address.start_date"
    assert "address.start_date" in record.derived and "addresses.start_date" not in record.derived
    assert addresses["valid_from_derived"].tolist() == [True] and not addresses["valid_to_derived"].any()
    registers = record.history("registers")  # no start date at all: NaT, nothing derived
    assert registers["valid_from"].isna().all() and not registers["valid_from_derived"].any()
    for field in FIELDS:
        frame = record.history(field)
        assert str(frame["valid_from_derived"].dtype) == "bool" and str(frame["valid_to_derived"].dtype) == "bool"
        pd.testing.assert_frame_equal(frame, history(record, field))
        plain = history(record.raw, field)  # a plain dict carries no marks
        assert not plain["valid_from_derived"].any() and not plain["valid_to_derived"].any()


@pytest.mark.slow
def test_the_served_header_names_the_derived_members(served: Any, chosen, derived_rows) -> None:
    company_id, _ = chosen
    answer = requests.get(
        f"{served.url}/v1/company/{company_id}", headers={"Authorization": "Bearer demo-paid"}, timeout=30
    )
    assert answer.status_code == 200, answer.text
    assert parse_marks(answer.headers[HEADER]) == frozenset(derived_rows[company_id])
    assert HEADER.lower() not in {k.lower() for k in answer.json()}  # the body is CompanyV1, unchanged
    assert len(answer.headers[HEADER]) < 200


def test_history_frames_mark_derived_dates_fetched_and_from_the_cache(served: Any, chosen, derived_rows) -> None:
    company_id, source = chosen
    with regkit.Client(api_key="demo-paid", base_url=served.url) as client:
        fetched = client.get_company(company_id)
        assert not fetched.meta.from_cache and fetched.meta.credits == 10
    assert fetched.derived == frozenset(derived_rows[company_id])
    _check_officers(fetched, source)
    _check_histories(fetched)
    # a new client, offline: the answer comes from the cache file, with its marks, and nothing is sent or paid
    with regkit.Client(api_key="demo-paid", base_url=served.url, offline=True) as offline:
        cached = offline.get_company(company_id)
        assert offline.requests_sent == 0
    assert cached.meta.from_cache and cached.meta.credits == 0
    assert cached.derived == fetched.derived
    _check_officers(cached, source)
    for field in FIELDS:
        pd.testing.assert_frame_equal(cached.history(field), fetched.history(field))


def test_a_batch_keeps_each_companys_marks(served: Any, chosen, derived_rows) -> None:
    company_id, _ = chosen
    ids = [company_id, *sorted(derived_rows)[::500]]
    with regkit.Client(api_key="demo-paid", base_url=served.url) as client:
        client.get_company(ids[1])  # one of them cached: the batch mixes cache hits and fetched answers
        batch = client.get_companies(ids, progress=False)
    assert [r.derived for r in batch.ok] == [frozenset(derived_rows[i]) for i in ids]
    frame = history(batch, "names")
    assert frame["valid_from_derived"].all() and set(frame["company_id"]) == set(ids)
    assert frame.groupby("company_id")["valid_to_derived"].apply(lambda s: not s.iloc[-1]).all()


def test_the_in_process_register_on_an_imported_world_sends_the_marks_too(imported: Path, chosen, derived_rows) -> None:
    company_id, source = chosen
    with regkit.Client(data_dir=imported) as client:
        record = client.get_company(company_id)
    assert record.derived == frozenset(derived_rows[company_id])
    _check_officers(record, source)
    _check_histories(record)


def test_the_bundled_world_marks_nothing(world) -> None:
    """The bundled synthetic world's dates are the register's: no header, no marks, every mark column False."""
    from regkit.local import open_local_register

    chosen = [
        next(c["id"] for c in world.companies.values() if len(c["names"]) > 1),
        next(c["id"] for c in world.companies.values() if len(c["capitals"]) > 1),
        next(c["id"] for c in world.companies.values() if len(c["addresses"]) > 1),
        next(c["id"] for c in world.companies.values() if c["id"] in world.realtime),
    ]
    register = open_local_register(rate_limit=0)
    session = register.session(register.default_api_key)
    for company_id in chosen:
        for query in ("", "?realtime=true"):
            answer = session.get(f"{register.base_url}/v1/company/{company_id}{query}")
            assert answer.status_code == 200 and HEADER not in answer.headers
    with regkit.Client() as client:
        records = [client.get_company(company_id) for company_id in chosen]
        records.append(client.get_company(chosen[-1], realtime=True))
    for record in records:
        assert record.derived == frozenset()
        for field in FIELDS:
            frame = record.history(field)
            assert not frame["valid_from_derived"].any() and not frame["valid_to_derived"].any()
            assert str(frame["valid_from_derived"].dtype) == "bool"
        assert not record.representatives()["start_date_derived"].any()


def test_the_marks_follow_each_entry_through_the_sort(company) -> None:
    """A mark names an entry by its index in the record's list; the frame sorts by date, and the mark follows the
    entry. The current member's mark covers the version equal to it, also one appended to the list."""
    from regkit.client import CompanyRecord

    names = company["names"]
    names.reverse()  # the list newest first: version 0 is names[1]
    marked = history(CompanyRecord(company, derived=["names[1].start_date"]), "names")
    assert marked["name"].tolist() == [names[1]["name"], names[0]["name"]]
    assert marked["valid_from_derived"].tolist() == [True, False]
    assert marked["valid_to_derived"].tolist() == [False, False]
    company["address"] = {**company["address"], "start_date": "2020-01-01", "street": "Neue Straße 1"}
    appended = history(CompanyRecord(company, derived=["address.start_date"]), "addresses")
    assert len(appended) == len(company["addresses"]) + 1 and appended["is_current"].iloc[-1]
    assert appended["valid_from_derived"].tolist() == [False, False, True]
    assert appended["valid_to_derived"].tolist() == [False, True, False]
    company["registers"] = [{k: v for k, v in company["register"].items() if k != "start_date"}]
    company["register"] = None
    undated = history(CompanyRecord(company, derived=["registers.start_date"]), "registers")
    assert undated["valid_from"].isna().all() and not undated["valid_from_derived"].any()  # no date, no mark


def test_records_and_dicts_mixed_keep_their_own_marks(company) -> None:
    from regkit.client import CompanyRecord

    other = {**company, "id": "DE-HRB-F1103-1"}
    frame = history([CompanyRecord(company, derived=["names.start_date"]), None, other], "names")
    assert frame.groupby("company_id", sort=False)["valid_from_derived"].all().to_dict() == {
        company["id"]: True,
        other["id"]: False,
    }
    mapping = history({company["id"]: CompanyRecord(company, derived=["names.start_date"])}, "names")
    assert mapping["valid_from_derived"].all()
