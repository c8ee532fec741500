"""Whether a company existed on a date (``regkit.frames.status``), as ``as_of`` and ``panel`` say it — checked as an
invariant over every company of the real OffeneRegister sample, imported here, and of the bundled world.

The rule: True from incorporation up to and on the record's newest dated fact; False before incorporation and from a
termination date on; after the newest dated fact True — unless the record says the company is removed but gives no
termination date (as every removed OffeneRegister record does): then unknown, ``None`` on the snapshot and ``<NA>``
in the panel.  Expected values are worked out here from the records' own members (``record_support`` reads their
dates apart from ``regkit.frames.status``).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

import pandas as pd
import pytest
from record_support import newest_record_date

from regkit.client import Client
from regkit.frames import as_of, panel
from regkit.frames.status import status_on
from regkit.local import open_local_register
from regkit.local.world import read_world
from regkit.local.world.offeneregister import import_offeneregister, sample_file

pytestmark = pytest.mark.slow


def shifted(day: str, days: int) -> str:
    return (dt.date.fromisoformat(day) + dt.timedelta(days=days)).isoformat()


@pytest.fixture(scope="module")
def sample_dir(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The committed OffeneRegister sample, imported the way ``regkit world import offeneregister`` does."""
    return import_offeneregister(sample_file(), tmp_path_factory.mktemp("offeneregister") / "world").directory


@pytest.fixture(scope="module")
def sample(sample_dir: Any) -> list[dict[str, Any]]:
    """Every imported company (read-only)."""
    return list(read_world(sample_dir).companies.values())


def removed_undated(company: dict[str, Any]) -> bool:
    return company["status"] == "inactive" and company["terminated_at"] is None


def test_the_sample_is_what_the_rule_is_about(sample: list[dict[str, Any]]) -> None:
    """Most removed records of the real data carry no termination date, and for most the only date is the
    incorporation date: the case the rule was wrong on (``existed`` False on the day of incorporation)."""
    assert len(sample) == 3000
    removed = [c for c in sample if removed_undated(c)]
    assert len(removed) > 1000 and not any(c["terminated_at"] for c in sample)
    assert sum(newest_record_date(c) == c["incorporated_at"] for c in removed) > len(removed) // 2


def test_every_sample_company_exists_on_its_incorporation_date_and_on_its_newest_dated_fact(
    sample: list[dict[str, Any]],
) -> None:
    wrong = []
    for company in sample:
        born, newest = company["incorporated_at"], newest_record_date(company)
        seen = (as_of(company, shifted(born, -1)).existed, as_of(company, born).existed, as_of(company, newest).existed)
        if seen != (False, True, True):
            wrong.append((company["id"], company["status"], born, newest, seen))
    assert not wrong, wrong[:5]


def test_after_its_newest_dated_fact_a_removed_company_without_termination_date_is_unknown(
    sample: list[dict[str, Any]],
) -> None:
    counts: Counter[tuple[str, Any]] = Counter()
    for company in sample:
        after = as_of(company, shifted(newest_record_date(company), 1))
        later = as_of(company, "2030-01-01")
        counts[(company["status"], after.existed)] += 1
        if removed_undated(company):
            assert (after.existed, after.status, later.existed, later.status) == (None, None, None, None), company["id"]
            assert not after.existed  # `if snap.existed:` still reads "not known to exist"
        else:  # active and in liquidation: still there (a company in liquidation exists)
            assert after.existed is True and later.existed is True, company["id"]
            assert after.status == later.status == company["status"], company["id"]
    removed = sum(removed_undated(c) for c in sample)
    assert counts[("inactive", None)] == removed
    assert set(counts) == {("inactive", None), ("active", True), ("liquidation", True)}


def test_with_a_termination_date_a_removed_company_is_gone_from_that_date_on(sample: list[dict[str, Any]]) -> None:
    removed = [c for c in sample if removed_undated(c)][:300]
    for company in removed:
        newest = newest_record_date(company)
        for end in (shifted(newest, 30), newest):  # later than every dated fact, or on the newest one
            dated = dict(company, terminated_at=end)
            assert as_of(dated, shifted(end, -1)).existed is (shifted(end, -1) >= company["incorporated_at"])
            for day in (end, shifted(end, 1), "2030-01-01"):
                then = as_of(dated, day)
                assert (then.existed, then.status) == (False, "inactive"), (company["id"], end, day)


def test_the_panel_agrees_with_the_snapshot_on_the_sample(sample: list[dict[str, Any]]) -> None:
    years = list(range(1990, 2021))
    frame = panel(sample, years=years)
    assert str(frame["exists_at_year_end"].dtype) == "boolean"
    by_id = {c["id"]: c for c in sample}
    expected = [status_on(by_id[cid], f"{year}-12-31") for cid, year in zip(frame["company_id"], frame["year"])]
    seen = [None if pd.isna(v) else bool(v) for v in frame["exists_at_year_end"]]
    assert seen == [e[0] for e in expected]
    assert [None if pd.isna(s) else s for s in frame["status"]] == [e[1] for e in expected]
    unknown = frame["exists_at_year_end"].isna()
    assert unknown.any() and set(frame.loc[unknown, "company_id"]) <= {c["id"] for c in sample if removed_undated(c)}
    assert not (frame["exists_at_year_end"] == False).any()  # noqa: E712 - nothing in the sample is terminated
    for cid in frame["company_id"].drop_duplicates().sample(60, random_state=7):  # as_of itself, on some
        rows = frame[frame["company_id"] == cid]
        for year, exists in zip(rows["year"], rows["exists_at_year_end"]):
            assert as_of(by_id[cid], f"{year}-12-31").existed == (None if pd.isna(exists) else bool(exists))


def test_the_bundled_worlds_removed_companies_stay_gone_after_termination(world_companies: list) -> None:
    removed = [c for c in world_companies if c["status"] == "inactive"]
    assert removed and all(c["terminated_at"] for c in removed)  # the synthetic world dates every removal
    for company in removed:
        end = company["terminated_at"]
        for day in (end, shifted(end, 1), shifted(end, 3650)):
            assert as_of(company, day).existed is False, (company["id"], day)
        if shifted(end, -1) >= company["incorporated_at"]:
            assert as_of(company, shifted(end, -1)).existed is True, company["id"]
    frame = panel(world_companies, years=range(1950, 2031))
    assert not frame["exists_at_year_end"].isna().any()  # nothing unknown where every removal is dated
    last = frame[frame["company_id"].isin([c["id"] for c in removed])].groupby("company_id").tail(1)
    assert not last["exists_at_year_end"].any() and (last["status"] == "inactive").all()


def test_records_from_the_local_register_say_the_same(sample_dir: Any, sample: list[dict[str, Any]], tmp_path) -> None:
    """The records the register serves (here: in-process, as a researcher's client reaches it) are the imported
    ones: their ``as_of`` (the record method) says the same."""
    removed = [c for c in sample if removed_undated(c)][:10]
    register = open_local_register(data_dir=sample_dir, state_path=tmp_path / "state.sqlite")
    try:
        with Client(cache=False, adapter=register.adapter) as client:
            for company in removed:
                record = client.get_company(company["id"])
                newest = newest_record_date(company)
                assert record.as_of(company["incorporated_at"]).existed is True
                assert record.as_of(newest).existed is True
                assert record.as_of(shifted(newest, 1)).existed is None
    finally:
        register.close()


def test_a_snapshot_of_unknown_existence_says_so_in_its_card(sample: list[dict[str, Any]]) -> None:
    company = next(c for c in sample if removed_undated(c))
    html = as_of(company, "2030-01-01")._repr_html_()
    assert "<th style='text-align:left'>existed</th><td>unknown</td>" in html
