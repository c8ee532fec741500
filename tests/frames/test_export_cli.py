"""``regkit export parquet DIR [--overwrite] [--cache WHERE]``, run through ``regkit.cli.main``."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from export_support import API_KEY

import regkit
from regkit.cli import main

pytest.importorskip("pyarrow", reason="the Parquet export needs pyarrow (pip install pyarrow)")

IDS = ["DE-HRB-R1102-109244", "DE-HRB-R3208-147620"]


@pytest.fixture()
def cached(tmp_path):
    """A cache file with two companies and a page of insolvencies, fetched from the bundled register."""
    path = tmp_path / "cache" / "answers.sqlite"
    with regkit.Client(api_key=API_KEY, cache=path) as client:
        client.get_companies(IDS, progress=False)
        client.search_insolvencies(per_page=3)
    return path


def test_export_prints_the_tables_and_that_nothing_was_spent(cached, tmp_path, capsys):
    assert main(["export", "parquet", str(tmp_path / "out"), "--cache", str(cached)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == f"exported 3 cached answer(s) from {cached} to {tmp_path / 'out'}"
    rows = {line.split()[0]: int(line.split()[1].replace(",", "")) for line in lines[2:27]}
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    assert rows == {name: table["rows"] for name, table in manifest["tables"].items()}
    assert rows["companies"] == 2 and rows["insolvency_results"] == 3
    assert "0 credits spent" in lines[-1]
    assert pd.read_parquet(tmp_path / "out" / "companies")["company_id"].tolist() == sorted(IDS)


def test_the_default_cache_is_the_one_a_client_uses(tmp_path, capsys):
    with regkit.Client(api_key=API_KEY) as client:  # REGKIT_CACHE_DIR points into the test's directory
        client.get_company(IDS[0])
        location = client.cache.location()
    assert main(["export", "parquet", str(tmp_path / "out")]) == 0
    assert f"from {location} to" in capsys.readouterr().out
    assert pd.read_parquet(tmp_path / "out" / "companies")["company_id"].tolist() == [IDS[0]]


def test_a_cache_directory_holding_the_cache_file_is_accepted(tmp_path, capsys):
    (tmp_path / "c").mkdir()
    with regkit.Client(api_key=API_KEY, cache=tmp_path / "c") as client:  # a directory: http_cache.sqlite in it
        client.get_company(IDS[1])
    assert main(["export", "parquet", str(tmp_path / "out"), "--cache", str(tmp_path / "c")]) == 0
    assert pd.read_parquet(tmp_path / "out" / "companies")["company_id"].tolist() == [IDS[1]]


def test_a_second_export_is_refused_without_overwrite(cached, tmp_path, capsys):
    target = str(tmp_path / "out")
    assert main(["export", "parquet", target, "--cache", str(cached)]) == 0
    capsys.readouterr()
    assert main(["export", "parquet", target, "--cache", str(cached)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("regkit: error: export directory") and "--overwrite" in error
    assert main(["export", "parquet", target, "--cache", str(cached), "--overwrite"]) == 0


def test_a_cache_that_is_not_there_is_an_error_not_a_new_cache(tmp_path, capsys):
    missing = tmp_path / "nowhere.sqlite"
    assert main(["export", "parquet", str(tmp_path / "out"), "--cache", str(missing)]) == 2
    assert "no cache there" in capsys.readouterr().err
    assert not missing.exists() and not (tmp_path / "out").exists()


def test_export_needs_a_format(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["export"])
    assert exited.value.code == 2
    assert "FORMAT" in capsys.readouterr().err
