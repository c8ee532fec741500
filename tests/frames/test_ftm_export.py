"""FollowTheMoney out: ``regkit export ftm`` / :func:`regkit.frames.ftm_export.export_ftm`, from a world and from the
cache, checked against the world's data files and loaded with FtM's own tools (``ftm validate``, ``ftm
export-gexf`` read back by networkx, ``ftm export-neo4j-bulk``). followthemoney 4 needs Python >= 3.11: skipped
on 3.10.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest
from export_support import API_KEY, fill_cache, pick_ids

import regkit
from regkit.errors import ValidationError
from regkit.local import open_local_register
from regkit.local.world.store import default_data_dir, read_world

pytest.importorskip("followthemoney", reason="the FtM export needs followthemoney (Python >= 3.11)")
from regkit.frames.ftm_export import export_ftm

FTM = shutil.which("ftm") or str(Path(sys.executable).with_name("ftm"))


def _entities(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _first(entity: dict, prop: str) -> str | None:
    values = entity["properties"].get(prop)
    return values[0] if values else None


@pytest.fixture(scope="module")
def bundled_ftm(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, list[dict]]:
    path = tmp_path_factory.mktemp("ftm") / "bundled.ftm.json"
    summary = export_ftm(path)
    return path, summary, _entities(path)


def test_every_company_mandate_shareholding_and_proceeding_of_the_world_is_an_entity(bundled_ftm) -> None:
    """Counted from the world's data files (``read_world``), not from what the export read."""
    _, summary, entities = bundled_ftm
    world = read_world()
    by_schema = Counter(e["schema"] for e in entities)
    assert by_schema == Counter(summary["entities"])
    assert len({e["id"] for e in entities}) == len(entities)  # each entity once
    companies = {e["id"]: e for e in entities if e["schema"] == "Company"}
    assert set(companies) == set(world.companies)
    mandates = {
        (c["id"], json.dumps(entry, sort_keys=True))
        for c in world.companies.values()
        for entry in c["representation"]
        if entry["role"] != "SHAREHOLDER"
    }
    assert by_schema["Directorship"] == len(mandates)
    assert by_schema["CourtCase"] == len(world.insolvencies)
    # every shareholding the register answers about (all with a holder id; current ones without: as owners)
    answered = [r for r in world.shareholdings if r["holder_id"] or r["end"] is None]
    ownerships = [e for e in entities if e["schema"] == "Ownership"]
    assert len(ownerships) == len(answered)
    with_id = {(r["holder_id"], r["company_id"], r["relation_type"], r["start"]): r for r in answered if r["holder_id"]}
    found = {(_first(o, "owner"), _first(o, "asset"), _first(o, "role"), _first(o, "startDate")): o for o in ownerships}
    for key, row in with_id.items():
        assert float(_first(found[key], "percentage")) == pytest.approx(row["share"] * 100), key
    merged = sum(1 for c in world.companies.values() if c["merged_into"])
    spun = sum(len(c["asset_spin_offs"]) for c in world.companies.values())
    assert by_schema["Succession"] == merged + spun
    agreements = sum(1 for c in world.companies.values() if c["profit_transfer_agreement"])
    assert by_schema["UnknownLink"] == agreements


def test_a_company_entity_carries_its_register_facts(bundled_ftm) -> None:
    _, _, entities = bundled_ftm
    world = read_world()
    record = next(c for c in world.companies.values() if c["contact"] and len(c["names"]) > 1)
    entity = next(e for e in entities if e["id"] == record["id"])
    props = entity["properties"]
    assert props["name"] == [record["name"]["name"]]
    assert set(props["previousName"]) == {n["name"] for n in record["names"]} - {record["name"]["name"]}
    assert record["id"] in props["registrationNumber"]
    assert props["incorporationDate"] == [record["incorporated_at"]]
    assert props["jurisdiction"] == ["de"] and props["legalForm"] == [record["legal_form"]]
    assert props["email"] == [record["contact"]["email"]]


def test_the_file_validates_and_loads_with_ftms_own_tools(tmp_path: Path) -> None:
    """A world of real records (the committed OffeneRegister sample): ``ftm validate`` re-parses every entity,
    ``ftm export-neo4j-bulk`` writes the files Neo4j's bulk import reads."""
    from regkit.local.world.offeneregister import import_offeneregister

    imported = import_offeneregister(default_data_dir() / "offeneregister" / "sample.jsonl.bz2", tmp_path / "world")
    path = tmp_path / "real.ftm.json"
    summary = export_ftm(path, data=imported.directory)
    assert summary["entities"]["Company"] == summary["answers"]["company"] > 1000
    assert "CC BY 4.0" in summary["source"]["attribution"]
    validated = tmp_path / "validated.ftm.json"
    done = subprocess.run([FTM, "validate", "-i", str(path), "-o", str(validated)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert len(_entities(validated)) == len(_entities(path)) == sum(summary["entities"].values())
    neo = tmp_path / "neo4j"
    done = subprocess.run([FTM, "export-neo4j-bulk", "-i", str(path), "-o", str(neo)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    companies = (neo / "Company.csv").read_text(encoding="utf-8").splitlines()
    assert len(companies) - 1 == summary["entities"]["Company"]  # a header, then one line each


@pytest.fixture(scope="module")
def cached_client(tmp_path_factory: pytest.TempPathFactory):
    base = tmp_path_factory.mktemp("ftm-cache")
    register = open_local_register(
        state_path=base / "state.sqlite", key_path=base / "register.key", rate_limit=None, extract_delay=0.0
    )
    client = regkit.Client(
        api_key=API_KEY, base_url=register.base_url, adapter=register.adapter, cache=base / "cache.sqlite"
    )
    fetched = fill_cache(client, pick_ids(read_world()))
    yield client, fetched
    client.close()
    register.close()


def test_the_cache_as_entities_loads_into_gephis_format(cached_client, tmp_path: Path) -> None:
    """From the cache: the companies, owners, holdings, person and proceedings fetched; ``ftm export-gexf`` turns
    them into a graph networkx reads, with a node per thing and an edge per link."""
    client, fetched = cached_client
    spent = client.credits_spent
    path = tmp_path / "cache.ftm.json"
    summary = export_ftm(path, cache=client)
    assert client.credits_spent == spent  # nothing sent
    entities = _entities(path)
    fetched_ids = {c["id"] for c in fetched.companies}
    full = {e["id"] for e in entities if e["schema"] == "Company" and "incorporationDate" in e["properties"]}
    assert full == fetched_ids
    assert summary["answers"]["person"] == 1 and summary["answers"]["insolvency"] == len(fetched.insolvencies)
    person = fetched.persons[0]
    assert any(e["id"] == person["id"] and e["schema"] == "Person" for e in entities)
    gexf = tmp_path / "cache.gexf"
    done = subprocess.run([FTM, "export-gexf", "-i", str(path), "-o", str(gexf)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    graph = nx.read_gexf(gexf)
    things = [e for e in entities if e["schema"] in {"Company", "Person", "LegalEntity", "CourtCase"}]
    links = [e for e in entities if e["schema"] not in {"Company", "Person", "LegalEntity", "CourtCase"}]
    assert graph.number_of_nodes() == len(things)
    assert graph.number_of_edges() == len(links)


def test_bad_arguments_are_refused_before_anything_is_written(tmp_path: Path, cached_client) -> None:
    client, _ = cached_client
    taken = tmp_path / "taken.ftm.json"
    taken.write_text("mine", encoding="utf-8")
    with pytest.raises(ValidationError, match="exists"):
        export_ftm(taken)
    with pytest.raises(ValidationError, match="directory"):
        export_ftm(tmp_path)
    with pytest.raises(ValidationError, match="not both"):
        export_ftm(tmp_path / "x.ftm.json", cache=client, data="bundled")
    with pytest.raises(ValidationError, match="Client"):
        export_ftm(tmp_path / "x.ftm.json", cache=object())
    assert taken.read_text(encoding="utf-8") == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken.ftm.json"]


def test_the_command_writes_a_world_and_refuses_to_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "world.ftm.json"
    command = [sys.executable, "-m", "regkit", "export", "ftm", str(out), "--data", "bundled"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "FollowTheMoney entities" in done.stdout and "ftm export-neo4j-bulk" in done.stdout
    assert len(out.read_text(encoding="utf-8").splitlines()) > 40_000
    again = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert again.returncode == 2 and "exists" in again.stderr and "--overwrite" in again.stderr
    missing = subprocess.run(
        [sys.executable, "-m", "regkit", "export", "ftm", str(tmp_path / "y.json"), "--data", str(tmp_path / "no")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert missing.returncode == 2 and "no such directory" in missing.stderr
