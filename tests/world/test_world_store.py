"""The world store: the same answers as the JSON-lines world, rebuilt when stale or damaged, built once.

Expected values come from the JSON-lines world as :func:`regkit.local.world.store.read_world` reads it, and from
lookups this module derives from those records itself; never from the store's own code.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import regkit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # fs_support

from regkit.local.models.catalog import Catalog, load_catalog
from regkit.local.world import default_data_dir
from regkit.local.world.store import WORLD_FILES, World, write_world
from regkit.local.world.world_store import (
    StoredWorld,
    StoreError,
    build_store,
    check_store,
    ensure_store,
    open_world,
)
from regkit.schema.websites import website_host

pytestmark = pytest.mark.slow

DATA = default_data_dir()


@pytest.fixture(scope="module")
def stored() -> StoredWorld:
    return open_world(DATA)


def _small_world(world: World, companies: int = 120) -> World:
    """The bundled world's first companies, with the shareholdings and proceedings that name them."""
    kept = dict(list(world.companies.items())[:companies])
    return World(
        meta=dict(world.meta),
        companies=kept,
        realtime={k: v for k, v in world.realtime.items() if k in kept},
        insolvencies={k: p for k, p in world.insolvencies.items() if p.get("company_id") in kept},
        shareholdings=[s for s in world.shareholdings if s["company_id"] in kept],
    )


@pytest.fixture
def small_dir(world: World, tmp_path: Path) -> Path:
    """A writable world directory of 120 companies (no store yet)."""
    return write_world(_small_world(world), tmp_path / "world")


def test_store_answers_equal_the_json_lines_world(world: World, stored: StoredWorld) -> None:
    assert len(stored.companies) == len(world.companies)
    assert list(stored.companies) == list(world.companies)  # ids streamed in id order
    for company_id, record in world.companies.items():
        assert stored.companies[company_id] == record
    assert dict(stored.realtime.items()) == world.realtime
    assert len(stored.insolvencies) == len(world.insolvencies)
    for proceeding_id, proceeding in world.insolvencies.items():
        assert stored.insolvencies.get(proceeding_id) == proceeding
    assert list(stored.shareholdings) == world.shareholdings
    assert stored.shareholdings[5] == world.shareholdings[5]
    assert stored.shareholdings[-1] == world.shareholdings[-1]
    assert dict(stored.meta["former_ids"]) == world.meta["former_ids"]
    assert {k: v for k, v in stored.meta.items() if k != "former_ids"} == {
        k: v for k, v in world.meta.items() if k != "former_ids"
    }
    assert "DE-HRB-X0000-0" not in stored.companies and stored.companies.get("DE-HRB-X0000-0") is None


def test_catalog_lookups_equal_lookups_derived_from_the_records(world: World) -> None:
    catalog = load_catalog()
    documents: dict[str, tuple[str, dict]] = {}
    for records in (world.companies, world.realtime):
        for company_id, company in records.items():
            for document in company.get("documents", ()):
                documents.setdefault(document["id"], (company_id, document))
    assert len(catalog.documents) == len(documents)
    for document_id in list(documents)[::50]:
        assert catalog.documents[document_id] == documents[document_id]

    persons: dict[str, dict] = {}
    for company in world.companies.values():
        for entry in company.get("representation", ()):
            if entry.get("type") == "natural_person" and entry.get("id"):
                persons.setdefault(entry["id"], {"name": entry.get("name"), **(entry.get("natural_person") or {})})
    for row in world.shareholdings:
        if row.get("holder_type") == "natural_person" and row.get("holder_id"):
            persons.setdefault(row["holder_id"], {"name": row.get("holder_name"), **(row.get("holder_details") or {})})
    for proceeding in world.insolvencies.values():
        if proceeding.get("person_id"):
            persons.setdefault(proceeding["person_id"], {"name": proceeding["debtor_name"], "city": proceeding["city"]})
    assert len(catalog.persons) == len(persons)
    assert list(catalog.persons) == list(persons)
    for person_id in list(persons)[::40]:
        assert catalog.persons[person_id] == persons[person_id]

    # a person's positions: every non-shareholder representation entry naming them, across all companies
    director = next(
        e["id"]
        for c in world.companies.values()
        for e in c.get("representation", ())
        if e.get("type") == "natural_person" and e.get("id") and e["role"] == "DIRECTOR"
    )
    held = sorted(
        (c["id"], e["role"], e["start_date"], e["end_date"])
        for c in world.companies.values()
        for e in c.get("representation", ())
        if e.get("id") == director and e["role"] != "SHAREHOLDER"
    )
    person = catalog.people[director.upper().lower()]
    assert sorted((p["register_id"], p["role"], p["start_date"], p["end_date"]) for p in person.positions) == held

    holder = next(r["holder_id"] for r in world.shareholdings if r["holder_id"])
    assert catalog.ownership.by_holder[holder] == [r for r in world.shareholdings if r["holder_id"] == holder]
    held_company = world.shareholdings[0]["company_id"]
    assert catalog.ownership.by_company[held_company] == [
        r for r in world.shareholdings if r["company_id"] == held_company
    ]
    current = [
        r
        for r in world.shareholdings
        if r["company_id"] == held_company and r.get("end") is None and float(r["share"]) > 0
    ]
    assert catalog.holders.get(held_company, []) == current
    assert catalog.ownership.by_company.get("DE-HRB-X0000-0") is None

    websites: dict[str, str] = {}
    for company_id in sorted(world.companies):
        url = (world.companies[company_id].get("contact") or {}).get("website_url")
        if url:
            websites.setdefault(website_host(url), company_id)
    assert len(catalog.websites) == len(websites)
    assert dict(catalog.websites.items()) == websites


def test_a_world_directory_gets_its_store_beside_it_and_opens_it_again(small_dir: Path) -> None:
    store = ensure_store(small_dir)
    assert store == small_dir.resolve() / "store"
    manifest = check_store(store)
    assert manifest["counts"]["companies"] == 120
    inode = (store / "records.sqlite").stat().st_ino
    os.utime(small_dir / "world.json")  # new mtime, same content: the sha256 decides, nothing is rebuilt
    assert ensure_store(small_dir) == store
    assert (store / "records.sqlite").stat().st_ino == inode
    assert json.loads((store / "store.json").read_text())["source"]["files"][0][2] == (
        (small_dir / "world.json").stat().st_mtime_ns
    )
    assert not [p.name for p in small_dir.iterdir() if p.name.startswith(".")]  # no temporary left


def test_a_stale_store_is_rebuilt(world: World, small_dir: Path) -> None:
    first = StoredWorld(ensure_store(small_dir))
    assert len(first.companies) == 120
    write_world(_small_world(world, 80), small_dir)  # the source changes under the store
    again = StoredWorld(ensure_store(small_dir))
    assert len(again.companies) == 80
    assert list(again.companies) == sorted(world.companies)[:80]


@pytest.mark.parametrize("damage", ["truncated", "overwritten", "manifest missing"])
def test_a_damaged_store_is_detected_and_rebuilt_never_served(world: World, small_dir: Path, damage: str) -> None:
    store = build_store(small_dir)
    records = store / "records.sqlite"
    if damage == "truncated":
        with records.open("r+b") as handle:
            handle.truncate(records.stat().st_size // 2)
    elif damage == "overwritten":
        with records.open("r+b") as handle:
            handle.write(b"\x00" * 4096)
    else:
        (store / "store.json").unlink()
    with pytest.raises(StoreError):
        check_store(store)
    rebuilt = StoredWorld(ensure_store(small_dir))
    check_store(rebuilt.store)
    company_id = sorted(world.companies)[7]
    assert rebuilt.companies[company_id] == world.companies[company_id]


def test_two_processes_building_at_once_end_with_one_good_store(small_dir: Path) -> None:
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    abandoned = small_dir / f".store.building-{gone.stdout.strip()}-0badf00d"  # a build whose process died
    abandoned.mkdir()
    (abandoned / "records.sqlite").write_bytes(b"SQLite format 3\x00 half written")
    code = "import sys; from regkit.local.world.world_store import ensure_store; print(ensure_store(sys.argv[1]))"
    env = {**os.environ, "PYTHONPATH": str(Path(regkit.__file__).parents[1])}
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(small_dir)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(2)
    ]
    results = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], results
    assert {out.strip() for out, _ in results} == {str(small_dir.resolve() / "store")}
    assert check_store(small_dir / "store")["counts"]["companies"] == 120
    assert sorted(p.name for p in small_dir.iterdir()) == sorted(
        [
            "store",
            "world.json",
            "companies.jsonl.gz",
            "realtime.jsonl.gz",
            "insolvencies.jsonl.gz",
            "shareholdings.jsonl.gz",
        ]
    )


_RACE = """
import os, pathlib, sys, time
from regkit.local.world.world_store import StoredWorld, ensure_store
start = pathlib.Path(sys.argv[1])
(start.parent / f"ready-{os.getpid()}").touch()
while not start.exists():  # both processes start building at the same moment
    time.sleep(0.005)
store = ensure_store()
print(store, len(StoredWorld(store).companies))
"""


@pytest.mark.slow
def test_two_processes_building_the_bundled_world_into_one_empty_cache_end_with_one_good_store(
    tmp_path: Path,
) -> None:
    # what two test workers do when both open the bundled world first: its store goes to the world cache
    cache, start = tmp_path / "world-cache", tmp_path / "start"
    env = {**os.environ, "PYTHONPATH": str(Path(regkit.__file__).parents[1]), "REGKIT_WORLD_CACHE": str(cache)}
    env.pop("REGKIT_DATA_DIR", None)
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", _RACE, str(start)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(2)
    ]
    deadline = time.monotonic() + 60
    while len(list(tmp_path.glob("ready-*"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)  # both have imported regkit and wait
    start.touch()
    results = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], results
    with gzip.open(DATA / "companies.jsonl.gz", "rt", encoding="utf-8") as lines:
        companies = sum(1 for line in lines if line.strip())
    [(store, counted)] = {tuple(out.split()) for out, _ in results}
    assert Path(store).parent == cache and int(counted) == companies
    assert check_store(Path(store))["counts"]["companies"] == companies
    assert sorted(p.name for p in cache.iterdir()) == sorted([Path(store).name, "paths"])  # nothing half built
    assert len(list((cache / "paths").iterdir())) == 1


def test_the_bundled_world_gets_its_store_in_the_world_cache(isolated_env: Path) -> None:
    store = ensure_store(DATA)
    assert Path(os.environ["REGKIT_WORLD_CACHE"]) in store.parents
    assert not (DATA / "store").exists()


def test_an_in_memory_world_is_served_from_a_temporary_store(world: World) -> None:
    small = _small_world(world, 30)
    catalog = load_catalog(small)
    assert isinstance(catalog, Catalog)
    assert list(catalog.world.companies) == sorted(small.companies)
    assert catalog.world.companies[sorted(small.companies)[3]] == small.companies[sorted(small.companies)[3]]


def test_client_data_dir_serves_that_world(world: World, small_dir: Path) -> None:
    company_id = sorted(world.companies)[42]
    outside = sorted(world.companies)[200]
    with regkit.Client(data_dir=small_dir, cache=False) as client:
        record = client.get_company(company_id)
        assert {k: v for k, v in record.raw.items() if k != "sources"} == world.companies[company_id]
        with pytest.raises(regkit.NotFoundError):
            client.get_company(outside)  # not in the 120 companies of this world
    with pytest.raises(regkit.ValidationError, match="not a regkit world"):
        regkit.Client(data_dir=small_dir / "nothing")
    with pytest.raises(regkit.ValidationError, match="base_url"):
        regkit.Client(data_dir=small_dir, base_url="http://127.0.0.1:9")


def test_world_index_command_builds_the_store_and_says_where(small_dir: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(regkit.__file__).parents[1])}
    run = subprocess.run(
        [sys.executable, "-m", "regkit", "world", "index", "--data", str(small_dir)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "120 companies" in run.stdout and str(small_dir.resolve() / "store") in run.stdout
    check_store(small_dir / "store")
    missing = subprocess.run(
        [sys.executable, "-m", "regkit", "world", "index", "--data", str(small_dir / "nothing")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert missing.returncode == 2 and "not a regkit world" in missing.stderr


def test_an_interrupted_build_leaves_no_store_that_would_be_used(tmp_path: Path) -> None:
    directory = tmp_path / "bundled-copy"
    directory.mkdir()
    for name in WORLD_FILES:
        shutil.copy2(DATA / name, directory / name)
    code = "import sys; from regkit.local.world.world_store import build_store; build_store(sys.argv[1])"
    env = {**os.environ, "PYTHONPATH": str(Path(regkit.__file__).parents[1])}
    build = subprocess.Popen([sys.executable, "-c", code, str(directory)], env=env)
    deadline = time.monotonic() + 60
    while not list(directory.glob(".store.building-*/records.sqlite")) and time.monotonic() < deadline:
        time.sleep(0.01)
    build.kill()  # SIGKILL mid-build: nothing of the process runs after this
    build.wait()
    assert list(directory.glob(".store.building-*")), "the build ended before it could be interrupted"
    assert not (directory / "store").exists()
    world = StoredWorld(ensure_store(directory))
    with gzip.open(directory / "companies.jsonl.gz", "rt", encoding="utf-8") as lines:
        assert len(world.companies) == sum(1 for line in lines if line.strip())
    assert not list(directory.glob(".store.*"))  # the abandoned build was removed


def _tables(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table of the SQLite file ``path`` (FTS5 shadow tables included), in key order."""
    import sqlite3

    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as db:
        names = [
            name
            for (name,) in db.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name"
            )
        ]
        rows = {name: sorted(db.execute(f'SELECT * FROM "{name}"').fetchall(), key=repr) for name in names}
    db.close()
    return rows


def test_search_indexes_built_in_a_second_process_equal_those_built_in_one(tmp_path: Path) -> None:
    """The bundled world (companies, proceedings, persons) built both ways: every table of every file equal."""
    source = default_data_dir()
    one = build_store(source, tmp_path / "one", processes=1)
    two = build_store(source, tmp_path / "two", processes=2)
    for name in ("companies.sqlite", "insolvencies.sqlite", "persons.sqlite"):
        first, second = _tables(one / "search" / name), _tables(two / "search" / name)
        assert first.keys() == second.keys() and first == second, name
    assert StoredWorld(two).companies["DE-GnR-B1204-17572"] == StoredWorld(one).companies["DE-GnR-B1204-17572"]
    assert len(StoredWorld(two).companies) == len(read_world_companies(source))


def read_world_companies(source: Path) -> list[dict[str, object]]:
    """The companies of the world directory ``source``, read from its JSON-lines file."""
    with gzip.open(source / "companies.jsonl.gz", "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def test_records_are_compressed_with_a_dictionary_kept_in_the_store(stored: StoredWorld) -> None:
    """Each record reads back alone with Zstandard and the dictionary kept in the store's meta, and is a fraction
    of its line; the dictionary is trained on the companies file's first lines (at most 5,000 or 4 MiB), so it is
    the same every build."""
    import zstandard

    (dictionary,) = stored.db.one("SELECT value FROM meta WHERE key = 'dictionary'") or ("",)
    trained = bytes.fromhex(dictionary)
    assert trained[:4] == (0xEC30A437).to_bytes(4, "little") and len(trained) <= 64 * 1024  # a trained dictionary
    with gzip.open(default_data_dir() / "companies.jsonl.gz", "rb") as handle:
        lines = [line.strip() for line in handle if line.strip()]
    first, size = [], 0
    for line in lines[:5000]:  # the first 5,000 lines, or as many as reach 4 MiB
        first.append(line)
        size += len(line)
        if size >= 4 << 20:
            break
    again = zstandard.train_dictionary(64 * 1024, first, level=3).as_bytes()
    assert again == trained
    decompressor = zstandard.ZstdDecompressor(
        dict_data=zstandard.ZstdCompressionDict(trained, dict_type=zstandard.DICT_TYPE_FULLDICT)
    )
    by_id = {json.loads(line)["id"]: line for line in lines[-200:]}
    blobs = stored.db.all(f"SELECT id, record FROM companies WHERE id IN ({', '.join('?' * len(by_id))})", tuple(by_id))
    assert len(blobs) == len(by_id)
    for company_id, blob in blobs:
        assert decompressor.decompress(blob) == by_id[company_id]
    assert sum(len(blob) for _, blob in blobs) < 0.25 * sum(len(line) for line in by_id.values())


def _run_regkit(code_or_command: list[str], environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    root = Path(regkit.__file__).resolve().parents[1]
    return subprocess.run(
        [sys.executable, *code_or_command],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=root,
        env={**os.environ, **environment},
    )


def test_a_full_cache_disk_says_so_and_where_to_move_the_store(tmp_path) -> None:
    """The bundled world's store is built in the world cache on first use. On a full disk, ``regkit.Client()`` and
    ``regkit serve`` say that a disk ran full and which variable moves the store; they neither blame the register's
    state file (``regkit.Client()`` told the user to move it away) nor the world (``regkit serve`` told them to
    rebuild it), and leave nothing half built."""
    from fs_support import tmpfs

    with tmpfs(tmp_path / "cache", "2m") as cache:
        environment = {"REGKIT_WORLD_CACHE": str(cache), "REGKIT_LOCAL_STATE": str(tmp_path / "state.sqlite")}
        client = _run_regkit(["-c", "import regkit; regkit.Client()"], environment)
        assert client.returncode == 1
        error = client.stderr.strip().splitlines()[-1]
        assert error.startswith("regkit.errors.RegkitError: a disk ran full while building the store of the world")
        assert "set REGKIT_WORLD_CACHE to a directory with more room" in error and f"free at {cache}" in error
        assert "state file" not in error
        served = _run_regkit(["-m", "regkit", "serve", "--port", "0"], environment)
        assert served.returncode == 1
        assert served.stderr.startswith("regkit serve: a disk ran full while building the store"), served.stderr
        assert "rebuild it" not in served.stderr and len(served.stderr.strip().splitlines()) == 1
        assert list(cache.iterdir()) == []


def test_a_full_state_disk_is_not_called_a_bad_state_file(tmp_path) -> None:
    """A state file whose disk is full is sound: the message says there is no room and not to delete the file
    (it told the user the file was not a register state file)."""
    from fs_support import fill, tmpfs

    with tmpfs(tmp_path / "state", "1m") as disk:
        fill(disk)
        state = disk / "state.sqlite"
        done = _run_regkit(["-m", "regkit", "credits"], {"REGKIT_LOCAL_STATE": str(state)})
        assert done.returncode == 1
        assert f"no room on the disk of the bundled register's state file {state}" in done.stderr, done.stderr
        assert "do not delete it" in done.stderr and "is not a register state file" not in done.stderr
        assert "Traceback" not in done.stderr
