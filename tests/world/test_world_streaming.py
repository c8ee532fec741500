"""Building a world straight to disk (``build_world_to``, what ``regkit world build`` runs) writes the same bytes
as building it in memory and writing it, and leaves no half-written world behind when a build fails."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

import pytest

from regkit.local.world import (
    DEFAULT_SEED,
    DEFAULT_SIZE,
    build_world,
    build_world_to,
    default_data_dir,
    read_world,
    write_world,
)
from regkit.local.world.spool import GzipLines, Spool, WorldWriter
from regkit.local.world.store import WORLD_FILES


def _same_files(first, second) -> None:
    for name in WORLD_FILES:
        assert (first / name).read_bytes() == (second / name).read_bytes(), f"{name} differs"


@pytest.mark.slow
@pytest.mark.parametrize(("size", "seed"), [(300, 1), (300, 2), (2000, 7), (2000, DEFAULT_SEED)])
def test_streaming_writes_the_bytes_of_the_in_memory_build(tmp_path, size, seed):
    world = build_world(size, seed)
    in_memory = write_world(world, tmp_path / "in-memory")
    written = build_world_to(tmp_path / "streamed", size, seed)
    _same_files(in_memory, written.directory)
    assert sorted(path.name for path in written.directory.iterdir()) == sorted(WORLD_FILES)  # no temporary files
    assert (written.companies, written.insolvencies, written.realtime, written.shareholdings) == (
        len(world.companies),
        len(world.insolvencies),
        len(world.realtime),
        len(world.shareholdings),
    )
    assert written.meta == world.meta


@pytest.mark.slow
def test_streaming_with_stage_seeds_writes_the_bytes_of_the_in_memory_build(tmp_path):
    stage_seeds = {"names": 3, "holdings": 9, "proceedings": 4, "transparency": 2}
    in_memory = write_world(build_world(600, 5, stage_seeds=stage_seeds), tmp_path / "in-memory")
    streamed = build_world_to(tmp_path / "streamed", 600, 5, stage_seeds=stage_seeds).directory
    _same_files(in_memory, streamed)
    assert json.loads((streamed / "world.json").read_text(encoding="utf-8"))["stage_seeds"] == stage_seeds


@pytest.mark.slow
def test_the_command_reproduces_the_bundled_world_byte_for_byte(tmp_path):
    # The command data/README.md gives, which builds straight to disk.
    command = ["world", "build", "--companies", str(DEFAULT_SIZE), "--seed", str(DEFAULT_SEED), "--out"]
    result = subprocess.run(
        [sys.executable, "-m", "regkit.cli", *command, str(tmp_path / "data")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "wrote 5000 companies, 1471 insolvency proceedings and 115 groups" in result.stdout
    _same_files(default_data_dir(), tmp_path / "data")


def test_a_failed_build_leaves_the_world_that_was_there(tmp_path):
    out = build_world_to(tmp_path / "w", 80, seed=3).directory
    before = {name: (out / name).read_bytes() for name in WORLD_FILES}
    with pytest.raises(FileNotFoundError, match="holds no reference lists"):
        build_world_to(out, 90, seed=4, reference_dir=tmp_path / "nowhere")
    assert sorted(path.name for path in out.iterdir()) == sorted(WORLD_FILES)
    assert {name: (out / name).read_bytes() for name in WORLD_FILES} == before
    assert len(read_world(out).companies) == 80


def test_a_writer_that_stops_halfway_leaves_no_files(tmp_path):
    world = build_world(120, seed=7)
    out = tmp_path / "half"
    with pytest.raises(RuntimeError, match="stopped"), WorldWriter(out) as writer:
        for record in list(world.companies.values())[:60]:
            writer.add_company(record)
        writer.add_shareholdings(world.shareholdings)
        raise RuntimeError("stopped")
    assert list(out.iterdir()) == []


def test_gzip_lines_write_what_gzip_reads_back_across_batches(tmp_path):
    lines = [json.dumps({"n": n, "text": "ä" * (n % 50)}, ensure_ascii=False).encode() for n in range(60_000)]
    out = GzipLines(tmp_path / "lines.jsonl.gz")
    for line in lines:
        out.write(line)
    out.close()
    assert gzip.decompress((tmp_path / "lines.jsonl.gz").read_bytes()) == b"".join(line + b"\n" for line in lines)


def test_a_spool_reads_lines_back_by_position_and_in_key_order(tmp_path):
    spool = Spool(tmp_path)
    for key, line in [("b", b"second"), ("c", b"third"), ("a", b"first, longer")]:
        spool.add(key, line)
    assert [spool.line(position) for position in range(3)] == [b"second", b"third", b"first, longer"]
    spool.add("aa", b"fourth, after reading")  # appended, not written over what was read
    assert list(spool.in_key_order()) == [b"first, longer", b"fourth, after reading", b"second", b"third"]
    assert spool.line(1) == b"third"
    spool.close()
    assert list(tmp_path.iterdir()) == []  # the temporary file has no name
