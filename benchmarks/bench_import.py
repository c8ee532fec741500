"""``regkit world import offeneregister``: records per second, peak memory and disk, beside the floor the file sets.

    python benchmarks/bench_import.py CHUNK [CHUNK ...] [--each] [--recipe] [--repeat K] [--workers N] [--keep DIR]

Imports the given chunks of the OffeneRegister bulk file (concatenated: bz2 streams one after another are one
multi-stream bz2 file, as the full file may be) with the ``regkit`` command in a process of its own, and prints in
one run, beside the targets of issue 24 (≥ 15,000 records/s on two cores, ≤ 2 GB peak, the 5.3 M-record file in
about 6 minutes, the world ≤ 6 GB):

- the baselines "bz2 decompression alone" and "json.loads alone" (one core each, this process) on the same chunks;
- the import: wall time, records/s, peak resident memory of the importer and its workers together (sampled every
  0.1 s), the world's size on disk; its two parts as the command prints them (the world's files: read, map, write,
  while the company search index is built from the rows the workers staged; then the rest of the store: records,
  person index, waiting for the company index);
- with ``--repeat K``: the same for the chunks repeated K times with shifted register numbers (new ids), written as
  *plain* JSON lines (compressing them again would take longer than the import), to see the rate and memory at a
  larger size; the full file's time, memory and size are extrapolated linearly from the largest run — say so;
- with ``--each``: each chunk alone, too (bz2, as given);
- with ``--recipe``: the collision recipe of issue 41 beside a clean file of the same size, both plain JSON lines:
  the first chunk's first 70 % of lines followed by its first 30 % again (every repeated line merged into its
  company, none lost), against the first chunk alone; the ratio of their rates is printed (≥ 15,000 lines/s is the
  target for both: linear time whatever the file holds);
- with ``--keep DIR``: the world of the largest run is kept at ``DIR`` (to measure serving it:
  ``benchmarks/bench_served_world.py DIR``).

The machine is shared: the first lines show the load and the busiest other processes, so the rows can be read.
"""

from __future__ import annotations

import argparse
import bz2
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
from machine_load import machine_lines

FULL_FILE = 5_300_000
TARGET_RATE = 15_000
TARGET_PEAK = 2 << 30
TARGET_DISK = 6 << 30


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("chunks", nargs="+", type=Path, help="chunks of de_companies_ocdata.jsonl.bz2")
    parser.add_argument("--repeat", type=int, default=0, help="also import the chunks repeated K times (plain)")
    parser.add_argument("--workers", type=int, default=None, help="mapping processes (default: the importer's)")
    parser.add_argument("--each", action="store_true", help="also import each chunk alone")
    parser.add_argument("--recipe", action="store_true", help="also import the collision recipe beside a clean file")
    parser.add_argument("--keep", type=Path, default=None, help="keep the world of the largest run here (new dir)")
    args = parser.parse_args()
    if args.keep is not None and args.keep.exists():
        raise SystemExit(f"--keep {args.keep}: it exists; pass a new directory")
    print("machine: " + "\n".join(machine_lines(6)))
    with tempfile.TemporaryDirectory(prefix="bench-import-") as scratch:
        work = Path(scratch)
        source = work / "chunks.jsonl.bz2"
        with source.open("wb") as out:
            for chunk in args.chunks:
                with chunk.open("rb") as handle:
                    shutil.copyfileobj(handle, out)
        records, seconds = _decompress_alone(source)
        print(f"{'bz2 decompression alone':<44} {records:>10,} records {seconds:7.1f} s {records / seconds:>9,.0f}/s")
        parsed, seconds = _json_alone(source)
        print(
            f"{'json.loads alone (lines already in memory)':<44} {parsed:>10,} records {seconds:7.1f} s {parsed / seconds:>9,.0f}/s"
        )
        rows = [_import(source, work / "world", args.workers, "import (bz2)")]
        if args.each and len(args.chunks) > 1:
            for number, chunk in enumerate(args.chunks):
                rows.append(_import(chunk, work / f"world-{number}", args.workers, f"import {chunk.name} (bz2)"))
        if args.recipe:
            clean, recipe = work / "clean.jsonl", work / "recipe.jsonl"
            _recipe(args.chunks[0], clean, recipe)
            both = [
                _import(clean, work / "world-clean", args.workers, f"import {args.chunks[0].name} (plain)"),
                _import(recipe, work / "world-recipe", args.workers, "import the collision recipe (plain)"),
            ]
            rates = [row["records"] / row["seconds"] for row in both]
            print(f"{'  recipe / clean, lines/s':<44} {rates[1] / rates[0]:18.2f}   (1.00: the same rate)")
            rows += both
            clean.unlink()
            recipe.unlink()
        if args.repeat > 1:
            plain = work / f"repeat{args.repeat}.jsonl"
            _repeat(source, plain, args.repeat)
            rows.append(_import(plain, work / "world-repeat", args.workers, f"import x{args.repeat} (plain)"))
            plain.unlink()
        largest = max(rows, key=lambda row: row["records"])
        _extrapolate(largest)
        for row in rows:
            if row is largest and args.keep is not None:
                shutil.move(str(row["out"]), args.keep)
                print(f"\nkept the world of {row['records']:,.0f} records at {args.keep}")
            else:
                shutil.rmtree(row["out"])


def _decompress_alone(source: Path) -> tuple[int, float]:
    started = time.perf_counter()
    count = 0
    with bz2.open(source, "rb") as handle:
        while block := handle.read1(1 << 20):
            count += block.count(b"\n")
    return count, time.perf_counter() - started


def _json_alone(source: Path) -> tuple[int, float]:
    with bz2.open(source, "rb") as handle:
        lines = handle.read().splitlines()
    started = time.perf_counter()
    for line in lines:
        json.loads(line)
    return len(lines), time.perf_counter() - started


def _recipe(chunk: Path, clean: Path, recipe: Path) -> None:
    """``clean``: the chunk's lines; ``recipe``: its first 70 % followed by its first 30 % again."""
    with bz2.open(chunk, "rb") as handle:
        lines = handle.read().splitlines(keepends=True)
    clean.write_bytes(b"".join(lines))
    recipe.write_bytes(b"".join(lines[: len(lines) * 7 // 10] + lines[: len(lines) * 3 // 10]))


def _repeat(source: Path, target: Path, times: int) -> None:
    with bz2.open(source, "rb") as handle:
        records = [json.loads(line) for line in handle]
    with target.open("w", encoding="utf-8") as out:
        for round_ in range(times):
            for record in records:
                attributes = record["all_attributes"]
                number = attributes["_registerNummer"]
                if round_:
                    attributes["_registerNummer"] = str(int(number) + round_ * 10_000_000)
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                attributes["_registerNummer"] = number


def _import(source: Path, out: Path, workers: int | None, label: str) -> dict[str, float]:
    command = [sys.executable, "-m", "regkit", "world", "import", "offeneregister", str(source), "--out", str(out)]
    environment = dict(os.environ)
    if workers is not None:
        command = [
            sys.executable,
            "-c",
            "import sys; from regkit.local.world.offeneregister import import_offeneregister as f; "
            f"f(sys.argv[1], sys.argv[2], workers={workers})",
            str(source),
            str(out),
        ]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=environment)
    peak = _watch(process)
    output = process.communicate()[0].decode()
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the importer and its workers, once they are reaped
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if process.returncode != 0:
        raise SystemExit(f"the import failed ({process.returncode}): {output}")
    report = json.loads((out / "import-report.json").read_text())
    disk = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    records = report["lines"]
    print(
        f"{label:<44} {records:>10,} records {seconds:7.1f} s {records / seconds:>9,.0f}/s  "
        f"peak {peak / 2**20:,.0f} MB  disk {disk / 2**20:,.1f} MB  (imported {report['imported']:,}, "
        f"merged {report.get('merged', {}).get('lines', 0):,}, kept apart {report.get('kept_apart', {}).get('lines', 0):,}, "
        f"skipped {sum(report['skipped'].values()):,})"
    )
    print(
        f"{'  CPU time of importer and workers':<44} {cpu:18.1f} s {records / cpu:>9,.0f}/s per core busy; "
        f"two free cores: {2 * records / cpu:,.0f}/s"
    )
    parts = re.search(r"world files ([0-9.]+) s, store ([0-9.]+) s", output)
    if parts:
        world, store = float(parts.group(1)), float(parts.group(2))
        print(
            f"{'  of which the world files (read, map, write)':<44} {world:18.1f} s {records / world:>9,.0f}/s"
            "  (the company search index is built meanwhile)\n"
            f"{'  then the rest of the store':<44} {store:18.1f} s"
        )
    return {"records": records, "seconds": seconds, "peak": peak, "disk": disk, "cpu": cpu, "out": out}


def _watch(process: subprocess.Popen[bytes]) -> int:
    """Peak of the summed resident memory of ``process`` and its children, sampled until it ends."""
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        try:
            root = psutil.Process(process.pid)
        except psutil.Error:
            return
        while not done.is_set():
            try:
                tree = [root, *root.children(recursive=True)]
                total = sum(p.memory_info().rss for p in tree if p.is_running())
            except psutil.Error:
                total = 0
            peak = max(peak, total)
            time.sleep(0.1)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    process.wait()
    done.set()
    thread.join()
    return peak


def _extrapolate(row: dict[str, float]) -> None:
    rate = row["records"] / row["seconds"]
    minutes = FULL_FILE / rate / 60
    disk = row["disk"] / row["records"] * FULL_FILE
    print(f"\nextrapolated linearly to the full file ({FULL_FILE:,} records) from the run of {row['records']:,.0f}:")
    print(f"  {'records/s':<12} {rate:>10,.0f}   target >= {TARGET_RATE:,}  ({minutes:.1f} min for the full file)")
    free = 2 * row["records"] / row["cpu"]
    print(
        f"  {'on 2 free cores':<12} {free:>10,.0f}   (records / half the CPU seconds: what the wall rate would be "
        f"if nothing else ran; {FULL_FILE / free / 60:.1f} min)"
    )
    print(
        f"  {'peak memory':<12} {row['peak'] / 2**20:>10,.0f} MB (measured on this run, not extrapolated: the "
        f"store's build grows with the world; --repeat shows how much)"
        f"   target <= {TARGET_PEAK / 2**20:,.0f} MB"
    )
    print(f"  {'disk':<12} {disk / 2**30:>10,.2f} GB   target <= {TARGET_DISK / 2**30:,.0f} GB")


if __name__ == "__main__":
    main()
