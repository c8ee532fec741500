"""Bad input to ``regkit world import offeneregister``: each kind counted with a sample and the import going on,
``--strict`` stopping at the first with nothing written, and an interrupted import (SIGKILL, SIGINT of a real
process) leaving no world behind. The bad files are written here from the committed sample."""

from __future__ import annotations

import bz2
import contextlib
import errno
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psutil
import pytest
from offeneregister_support import ROOT, import_command, run_import, sample_records, shifted, write_lines

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fs_support import fill, tmpfs

from regkit.errors import ValidationError
from regkit.local.world import read_world
from regkit.local.world.offeneregister import import_offeneregister

pytestmark = pytest.mark.slow


def _line(record: dict[str, Any]) -> bytes:
    return json.dumps(record, ensure_ascii=False).encode()


def _changed(record: dict[str, Any], number: int, **attributes: Any) -> dict[str, Any]:
    copy = json.loads(json.dumps(record))
    copy["all_attributes"]["_registerNummer"] = str(number)
    for key, value in attributes.items():
        if value is None:
            copy["all_attributes"].pop(key, None)
        else:
            copy["all_attributes"][key] = value
    return copy


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    return sample_records()


@pytest.fixture(scope="module")
def bad_lines(records) -> dict[str, tuple[int, bytes]]:
    """Each kind of bad line, with the line number it gets in :func:`mixed_file` (1-based)."""
    with_officer = next(r for r in records if r.get("officers") and r["all_attributes"]["_registerArt"] == "HRB")
    odd = _changed(with_officer, 99_000_001)
    odd["officers"][0]["position"] = "Aufsichtsratsvorsitzender"
    return {
        "not_json": (101, b'{"all_attributes": {"_registerArt": "HRB", '),
        "no_register_number": (102, _line(_changed(records[0], 0, _registerNummer=None))),
        "unknown_court": (103, _line(_changed(records[1], 99_000_002, registrar="Atlantis"))),
        "unknown_position": (104, _line(odd)),
        "merged": (105, _line(records[5])),  # the same line again: merged, not lost
    }


@pytest.fixture(scope="module")
def mixed_file(tmp_path_factory, records, bad_lines) -> Path:
    good = [_line(r) for r in records[:200]]
    lines = good[:100] + [line for _, line in sorted(bad_lines.values())] + good[100:]
    return write_lines(tmp_path_factory.mktemp("bad") / "mixed.jsonl.bz2", lines)


def test_each_kind_is_counted_with_a_sample_and_the_import_goes_on(tmp_path, mixed_file, bad_lines, records) -> None:
    imported = import_offeneregister(mixed_file, tmp_path / "world")
    report = json.loads((tmp_path / "world" / "import-report.json").read_text())
    assert report["lines"] == 205
    assert report["skipped"] == {
        "not_json": 1,
        "not_a_record": 0,
        "no_register_number": 1,
        "unknown_court": 1,
    }
    assert report["warnings"]["unknown_position"] == 1
    assert report["imported"] == 201 == imported.report.imported  # 200 good lines and the odd position's
    assert report["imported"] + report["merged"]["lines"] + sum(report["skipped"].values()) == report["lines"]
    for kind, (line, _) in bad_lines.items():
        assert report["samples"][kind][0]["line"] == line, kind
    assert [u["line"] for u in report["unformed_ids"]] == [102, 103]
    assert report["merged"]["listed"] == [{"line": 105, "id": report["merged"]["listed"][0]["id"], "into_line": 6}]
    world = read_world(tmp_path / "world")
    odd = next(c for c in world.companies.values() if c["register"]["register_number"] == "99000001")
    assert odd["representation"][0]["role"] == "OTHER"
    assert "Aufsichtsratsvorsitzender" in report["samples"]["unknown_position"][0]["detail"]


def test_a_truncated_file_imports_what_it_holds_and_says_so(tmp_path, records) -> None:
    lines = [_line(r) for r in records]
    whole = bz2.compress(b"".join(line + b"\n" for line in lines))
    cut = tmp_path / "cut.jsonl.bz2"
    cut.write_bytes(whole[: len(whole) * 3 // 5])
    imported = import_offeneregister(cut, tmp_path / "world")
    report = imported.report.as_dict()
    assert report["warnings"]["truncated_file"] == 1
    assert "ends inside a compressed block" in report["samples"]["truncated_file"][0]["detail"]
    assert 0 < report["lines"] < len(lines)
    assert report["imported"] + sum(report["skipped"].values()) == report["lines"]
    assert report["imported"] == report["lines"]  # every complete line before the cut


@pytest.mark.parametrize("kind", ["not_json", "no_register_number", "unknown_court", "unknown_position"])
def test_strict_stops_at_the_first_bad_line_and_writes_nothing(tmp_path, records, bad_lines, kind) -> None:
    line, text = bad_lines[kind]
    source = write_lines(tmp_path / "one.jsonl", [_line(records[0]), text], compress=False)
    out = tmp_path / "world"
    done = run_import(str(source), "--out", str(out), "--strict")
    assert done.returncode == 2
    assert "line 2:" in done.stderr and "--strict" in done.stderr
    assert not out.exists() and not list(tmp_path.glob("world.partial-*"))
    with pytest.raises(ValidationError, match="line 2"):
        import_offeneregister(source, out, strict=True)
    assert not out.exists()


def test_strict_stops_at_a_truncated_file(tmp_path, records) -> None:
    whole = bz2.compress(b"".join(_line(r) + b"\n" for r in records))
    cut = tmp_path / "cut.jsonl.bz2"
    cut.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(ValidationError, match="compressed block"):
        import_offeneregister(cut, tmp_path / "world", strict=True)
    assert not (tmp_path / "world").exists() and not list(tmp_path.glob("world.partial-*"))


def test_arguments_are_checked_before_anything_is_read(tmp_path) -> None:
    with pytest.raises(ValidationError, match="no file"):
        import_offeneregister(tmp_path / "missing.jsonl.bz2", tmp_path / "world")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    source = write_lines(tmp_path / "s.jsonl", [b"{}"], compress=False)
    with pytest.raises(ValidationError, match="not empty"):
        import_offeneregister(source, tmp_path / "full")
    with pytest.raises(ValidationError, match="--limit"):
        import_offeneregister(source, tmp_path / "world", limit=0)


@pytest.fixture(scope="module")
def big_file(tmp_path_factory, records) -> Path:
    """60,000 lines (the sample 20 times, register numbers shifted): an import that takes a while."""
    return write_lines(tmp_path_factory.mktemp("big") / "big.jsonl", shifted(records, 20), compress=False)


def _start_and_interrupt(tmp_path: Path, source: Path, how: signal.Signals) -> tuple[int, list[psutil.Process]]:
    out = tmp_path / "world"
    process = subprocess.Popen(import_command(str(source), "--out", str(out)), cwd=ROOT, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    partial = tmp_path / f"world.partial-{process.pid}"
    while not (partial.is_dir() and any(partial.iterdir())):  # mapped lines spooled: it is mid-import
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(1.0)
    assert process.poll() is None, "the import finished before it could be interrupted"
    children = psutil.Process(process.pid).children(recursive=True)
    os.kill(process.pid, how)
    code = process.wait(timeout=60)
    if process.stderr:
        process.stderr.close()
    return code, children


def test_a_killed_import_leaves_no_world(tmp_path, big_file, records) -> None:
    code, children = _start_and_interrupt(tmp_path, big_file, signal.SIGKILL)
    assert code == -signal.SIGKILL
    assert not (tmp_path / "world").exists()
    gone, alive = psutil.wait_procs(children, timeout=10)
    assert not alive, f"workers outlived the killed import: {alive}"
    # the next import into the same place removes the dead import's partial directory and succeeds
    small = write_lines(tmp_path / "small.jsonl", [_line(r) for r in records[:50]], compress=False)
    import_offeneregister(small, tmp_path / "world")
    assert (tmp_path / "world" / "companies.jsonl.gz").is_file()
    assert not list(tmp_path.glob("world.partial-*"))


def test_the_store_process_dies_with_a_killed_import(tmp_path, big_file) -> None:
    """Killed once the company search index is being built in a process of its own (after the records are
    mapped): that process ends at once too, instead of building on for an import that is gone."""
    out = tmp_path / "world"
    process = subprocess.Popen(import_command(str(big_file), "--out", str(out)), cwd=ROOT, stderr=subprocess.DEVNULL)
    importer = psutil.Process(process.pid)
    deadline = time.monotonic() + 120
    index = f"world.partial-{process.pid}/.store.building-*/search/.companies.sqlite.*"
    while not list(tmp_path.glob(index)):  # the company index is being written
        assert process.poll() is None, "the import finished before its company index was seen being built"
        assert time.monotonic() < deadline
        time.sleep(0.01)
    builders = [c for c in importer.children() if "regkit.local.world.store_indexes" in _command(c)]
    assert builders, "no store process"
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=60)
    gone, alive = psutil.wait_procs(builders, timeout=1)  # its build had seconds to go
    running = [p for p in alive if _status(p) not in (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD)]
    assert not running, "the store process outlived the killed import"


def _status(process: psutil.Process) -> str:
    """Its status; a process already reaped is dead (an orphan's zombie waits for whoever reaps here)."""
    try:
        return str(process.status())
    except psutil.NoSuchProcess:
        return psutil.STATUS_DEAD


def _command(process: psutil.Process) -> str:
    try:
        return " ".join(process.cmdline())
    except psutil.Error:
        return ""


@pytest.mark.parametrize("room", ["30m", "160m", "200m"])
def test_a_full_disk_stops_the_import_at_once_with_what_to_do(tmp_path, big_file, room) -> None:
    """A real full disk (a tmpfs of ``room``) under ``--out``. The sizes make it run full in different places: 30
    MB while the records are mapped (a mapping process's spool or staged rows), 160 MB as the mapping processes
    finish their spools (one waited there for the other for 10 minutes, then failed with a BrokenBarrierError), 200
    MB in the store's index process. Each time: one line that says a disk ran full, where the room is and what to
    do, no traceback, exit code 1, nothing left on the disk, no process left."""
    with tmpfs(tmp_path / "disk", room) as disk:
        out = disk / "world"
        process = subprocess.Popen(
            import_command(str(big_file), "--out", str(out)),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        importer = psutil.Process(process.pid)
        helpers: list[psutil.Process] = []
        while process.poll() is None:
            with contextlib.suppress(psutil.Error):
                helpers.extend(c for c in importer.children(recursive=True) if c not in helpers)
            time.sleep(0.05)
        try:
            _, stderr = process.communicate(timeout=300)  # far below the 600 s a worker once waited
        except subprocess.TimeoutExpired:
            process.kill()
            pytest.fail("the import hung after the disk ran full")
        assert process.returncode == 1, stderr
        assert "Traceback" not in stderr, stderr
        message = [line for line in stderr.splitlines() if line.startswith("regkit world import offeneregister:")]
        assert len(message) == 1, stderr
        assert "a disk ran full during the import" in message[0]
        assert f"left nothing at {out}" in message[0]
        assert f"free at {disk}," in message[0] and "set TMPDIR to move them" in message[0]
        assert list(disk.iterdir()) == [], "the partial import is removed"
        assert helpers, "the import started no process"
        gone, alive = psutil.wait_procs(helpers, timeout=10)
        assert not [p for p in alive if _status(p) not in (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD)]


def test_a_full_temporary_directory_is_named_with_its_room(tmp_path, big_file) -> None:
    """SQLite's temporary files (the company index's sort) go to ``TMPDIR``, not beside the output: when that disk
    runs full, the message names it, its room and the variable that moves it."""
    with tmpfs(tmp_path / "small-tmp", "1m") as temporary:
        out = tmp_path / "world"
        environment = {**os.environ, "TMPDIR": str(temporary)}
        environment.pop("SQLITE_TMPDIR", None)
        done = subprocess.run(
            import_command(str(big_file), "--out", str(out)),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
            env=environment,
        )
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stderr, done.stderr
        assert "a disk ran full during the import" in done.stderr
        assert f"for temporary files 1.0 MB free at {temporary} (set TMPDIR to move them)" in done.stderr
        assert not out.exists() and not list(tmp_path.glob("world.partial-*"))


def test_a_mapping_process_that_cannot_finish_its_spool_releases_the_others(tmp_path, records, monkeypatch) -> None:
    """The mapping processes wait for each other after writing their last run (so that each takes one). One whose
    last run does not fit on the disk breaks that barrier: the others return at once, instead of after the
    barrier's 600 s timeout, and its own error is the full disk."""
    from regkit.local.world.offeneregister import importer

    batch = [(number, _line(record)) for number, record in enumerate(records[:2000], 1)]
    with tmpfs(tmp_path / "disk", "32m") as disk:
        importer._map_batch(batch, disk, importer.RUN_BYTES)  # staged and kept in memory: no run written yet
        fill(disk)
        barrier = threading.Barrier(2)
        monkeypatch.setattr(importer, "_BARRIER", barrier)
        outcome: list[BaseException] = []

        def other_process() -> None:
            try:
                barrier.wait(timeout=600)
            except threading.BrokenBarrierError as error:
                outcome.append(error)

        other = threading.Thread(target=other_process, daemon=True)
        other.start()
        with pytest.raises(OSError) as raised:
            importer._finish_worker(disk)
        assert raised.value.errno == errno.ENOSPC
        other.join(timeout=30)
        assert not other.is_alive(), "the other mapping process still waits for the one that failed"
        assert len(outcome) == 1


def test_an_interrupted_import_cleans_up(tmp_path, big_file) -> None:
    code, children = _start_and_interrupt(tmp_path, big_file, signal.SIGINT)
    assert code != 0
    assert not (tmp_path / "world").exists()
    assert not list(tmp_path.glob("world.partial-*"))
    gone, alive = psutil.wait_procs(children, timeout=10)
    assert not alive


def test_a_court_the_company_number_does_not_confirm_is_imported_and_reported(tmp_path, records) -> None:
    changed = json.loads(json.dumps(records[0]))
    number = changed["company_number"]
    changed["company_number"] = "Z9999_" + number.split("_", 1)[1]
    source = write_lines(tmp_path / "mismatch.jsonl", [_line(changed)], compress=False)
    report = import_offeneregister(source, tmp_path / "world").report.as_dict()
    assert report["imported"] == 1 and report["warnings"]["court_mismatch"] == 1
    assert "Z9999" in report["samples"]["court_mismatch"][0]["detail"]


def test_limit_reads_the_first_lines_only(tmp_path, records) -> None:
    source = write_lines(tmp_path / "some.jsonl.bz2", [_line(r) for r in records[:300]])
    done = run_import(str(source), "--out", str(tmp_path / "world"), "--limit", "120")
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "world" / "import-report.json").read_text())
    assert report["lines"] == report["imported"] == 120
    world = read_world(tmp_path / "world")
    assert {c["name"]["name"] for c in world.companies.values()} == {r["name"] for r in records[:120]}


def test_a_killed_mapping_process_stops_the_import(tmp_path, big_file) -> None:
    """A mapping process killed mid-import (as the kernel's out-of-memory killer would) stops the import at once
    with a message that says what happened, instead of waiting for the lost batch for ever; nothing is left."""
    out = tmp_path / "world"
    process = subprocess.Popen(
        import_command(str(big_file), "--out", str(out)), cwd=ROOT, stderr=subprocess.PIPE, text=True
    )
    partial = tmp_path / f"world.partial-{process.pid}"
    deadline = time.monotonic() + 120
    keys: list[Path] = []
    while not keys:  # a mapping process has mapped its first batch: it writes keys-<its pid>
        assert process.poll() is None, "the import finished before a mapping process was seen"
        assert time.monotonic() < deadline
        time.sleep(0.01)
        keys = list(partial.glob("keys-*")) if partial.is_dir() else []
    others = psutil.Process(process.pid).children(recursive=True)
    os.kill(int(keys[0].name.removeprefix("keys-")), signal.SIGKILL)
    try:
        _, stderr = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("the import waited on after one of its mapping processes was killed")
    assert process.returncode == 1
    assert "a mapping process of the import died" in stderr and "run the import again" in stderr
    assert "Traceback" not in stderr
    assert not out.exists()
    assert not list(tmp_path.glob("world.partial-*"))
    gone, alive = psutil.wait_procs(others, timeout=10)
    assert not [p for p in alive if _status(p) not in (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD)]
