"""Building worlds: determinism, the command line, and its errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from regkit.local.world import DEFAULT_SEED, DEFAULT_SIZE, build_world, default_data_dir, read_world, write_world
from regkit.local.world.store import WORLD_FILES


@pytest.mark.slow
def test_default_seed_reproduces_the_bundled_world_byte_for_byte(tmp_path):
    bundled = default_data_dir()
    meta = json.loads((bundled / "world.json").read_text(encoding="utf-8"))
    assert (meta["seed"], meta["size"]) == (DEFAULT_SEED, DEFAULT_SIZE)
    write_world(build_world(DEFAULT_SIZE, DEFAULT_SEED), tmp_path)
    for name in WORLD_FILES:
        assert (tmp_path / name).read_bytes() == (bundled / name).read_bytes(), f"{name} differs from data/{name}"


@pytest.mark.slow
def test_another_seed_gives_another_world_of_the_asked_size():
    first, second = build_world(300, seed=1), build_world(300, seed=2)
    assert len(first.companies) == len(second.companies) == 300
    assert set(first.companies) != set(second.companies)


def test_round_trip_through_the_files(tmp_path):
    world = build_world(120, seed=7)
    read_back = read_world(write_world(world, tmp_path / "w"))
    assert read_back.companies == world.companies
    assert read_back.insolvencies == world.insolvencies
    assert read_back.realtime == world.realtime
    assert read_back.shareholdings == world.shareholdings
    assert read_back.meta["groups"] == world.meta["groups"]


@pytest.mark.slow
def test_cli_builds_a_world(tmp_path):
    out = tmp_path / "small"
    result = subprocess.run(
        [sys.executable, "-m", "regkit.cli", "world", "build", "--companies", "80", "--seed", "3", "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "wrote 80 companies" in result.stdout
    assert len(read_world(out).companies) == 80


def test_cli_refuses_a_world_too_small_to_hold_every_shape(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "regkit.cli", "world", "build", "--companies", "10", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2 and "at least 50" in result.stderr
    assert not (tmp_path / "world.json").exists()


def test_reading_a_directory_that_is_no_world_says_how_to_build_one(tmp_path):
    with pytest.raises(FileNotFoundError, match="regkit world build"):
        read_world(tmp_path)


@pytest.mark.slow
def test_a_world_elsewhere_builds_from_the_bundled_reference_lists(tmp_path, monkeypatch):
    # REGKIT_DATA_DIR at a built world (which has no reference/): building needs no --reference.
    elsewhere = write_world(build_world(60, seed=5), tmp_path / "elsewhere")
    assert not (elsewhere / "reference").exists()
    monkeypatch.setenv("REGKIT_DATA_DIR", str(elsewhere))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "regkit",
            "world",
            "build",
            "--companies",
            "60",
            "--seed",
            "5",
            "--out",
            str(tmp_path / "again"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    for name in WORLD_FILES:  # the same lists, so the same world
        assert (tmp_path / "again" / name).read_bytes() == (elsewhere / name).read_bytes()
