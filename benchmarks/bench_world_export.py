"""``regkit world export parquet`` beside ``regkit world import offeneregister``, on the same world, in one run.

    python benchmarks/bench_world_export.py CHUNK [CHUNK ...] [--repeat K] [--slice 100000] [--ftm]

Imports the given chunks of the OffeneRegister bulk file (repeated K times with shifted register numbers, as plain
JSON lines: ``bench_import.py``'s recipe), then exports the world to Parquet, each with the ``regkit`` command in a
process of its own, and prints side by side (issue 45):

- the import and the export: wall time, companies/s, peak resident memory of the command and its workers together
  (sampled every 0.1 s), and the export's rate over the import's (target: >= 1, the export at least as fast);
- sizes: the world's files, its store (what ``regkit serve`` reads) and the Parquet dataset;
- register-wide interlocks: :func:`regkit.frames.register_sql.interlocks` over the whole world in DuckDB, and on the
  first ``--slice`` companies (by id) beside :func:`regkit.graph.interlocks` on a graph of the same companies
  (built here: its time is printed apart), with whether the two frames are equal;
- with ``--ftm``: ``regkit export ftm`` of the world (entities/s, file size).

The full file's times are extrapolated linearly from the run's rates — said so where printed. The machine is shared:
the first lines show its load, so the rows can be read.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
from bench_import import _repeat, _watch
from machine_load import machine_lines

FULL_FILE = 5_300_000


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _run(command: list[str], label: str, companies: int) -> dict[str, float]:
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak = _watch(process)
    output, errors = process.communicate()
    seconds = time.perf_counter() - started
    if process.returncode != 0:
        raise SystemExit(f"{label} failed ({process.returncode}): {errors.decode()[-2000:]}")
    print(
        f"{label:<34} {companies:>10,} companies {seconds:7.1f} s {companies / seconds:>9,.0f}/s  "
        f"peak {peak / 2**20:>7,.0f} MB   (full file: {FULL_FILE / (companies / seconds) / 60:.1f} min, extrapolated)"
    )
    return {"seconds": seconds, "peak": peak, "rate": companies / seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("chunks", nargs="+", type=Path, help="chunks of de_companies_ocdata.jsonl.bz2")
    parser.add_argument("--repeat", type=int, default=1, help="the chunks repeated K times (new ids each time)")
    parser.add_argument("--slice", type=int, default=100_000, help="companies compared with regkit.graph")
    parser.add_argument("--ftm", action="store_true", help="also export the world as FollowTheMoney entities")
    args = parser.parse_args()
    print("machine: " + "\n".join(machine_lines(6)))
    with tempfile.TemporaryDirectory(prefix="bench-world-export-") as scratch:
        work = Path(scratch)
        joined = work / "chunks.jsonl.bz2"
        with joined.open("wb") as out:
            for chunk in args.chunks:
                with chunk.open("rb") as handle:
                    shutil.copyfileobj(handle, out)
        source = work / "lines.jsonl"
        _repeat(joined, source, max(args.repeat, 1))
        world, dataset = work / "world", work / "dataset"
        regkit = [sys.executable, "-m", "regkit"]
        lines = sum(1 for _ in source.open("rb"))
        print(f"\n{lines:,} lines ({len(args.chunks)} chunk(s) x {max(args.repeat, 1)}), plain JSON lines\n")
        imported = _run(
            [*regkit, "world", "import", "offeneregister", str(source), "--out", str(world)], "import", lines
        )
        companies = json.loads((world / "import-report.json").read_text())["imported"]
        exported = _run([*regkit, "world", "export", "parquet", str(world), str(dataset)], "export parquet", companies)
        print(
            f"{'  export rate / import rate':<34} {exported['rate'] / imported['rate']:>20.2f}   (target >= 1.00)\n"
            f"{'  export peak / import peak':<34} {exported['peak'] / imported['peak']:>20.2f}"
        )
        manifest = json.loads((dataset / "manifest.json").read_text())
        accounted = manifest["accounted"]
        print(
            f"{'  accounted: companies':<34} store {accounted['companies']['store']:,}, rows "
            f"{accounted['companies']['rows']:,}; representation entries {accounted['representation_entries']['records']:,}, "
            f"rows {accounted['representation_entries']['rows']:,}; left out {manifest['left_out'] or 'nothing'}"
        )
        store = world / "store"
        files = _size(world) - _size(store)
        print(
            f"\n{'sizes':<34} world files {files / 2**20:,.1f} MB   store {_size(store) / 2**20:,.1f} MB   "
            f"Parquet {_size(dataset) / 2**20:,.1f} MB   (Parquet / store {_size(dataset) / _size(store):.2f})"
        )
        _interlocks(world, dataset, args.slice)
        if args.ftm:
            out = work / "world.ftm.json"
            ftm = _run([*regkit, "export", "ftm", str(out), "--data", str(world)], "export ftm", companies)
            entities = sum(1 for _ in out.open("rb"))
            print(
                f"{'  entities':<34} {entities:>10,}  {entities / ftm['seconds']:,.0f}/s   file "
                f"{out.stat().st_size / 2**20:,.1f} MB"
            )


def _interlocks(world: Path, dataset: Path, size: int) -> None:
    import regkit.graph as rg
    from regkit.frames.register_sql import connect, interlocks
    from regkit.local.models.world_answers import WorldAnswers

    connection = connect(dataset)
    started = time.perf_counter()
    everyone = interlocks(connection)
    whole = time.perf_counter() - started
    total = connection.execute("SELECT count(*) FROM companies").fetchone()[0]
    print(f"\n{'interlocks in DuckDB, whole world':<34} {total:>10,} companies {whole:7.2f} s   {len(everyone):,} rows")
    answers = WorldAnswers.open(world)
    first = answers.ranges("company", size)[0]
    records = list(answers.answers(first))
    last = records[-1]["id"]
    files = ", ".join(
        f"'{dataset / f}'"
        for f in json.loads((dataset / "manifest.json").read_text())["tables"]["representatives"]["files"]
    )
    bound = "'" + last.replace("'", "''") + "'"
    connection.execute(
        f"CREATE OR REPLACE VIEW representatives AS SELECT * FROM read_parquet([{files}]) WHERE company_id <= {bound}"
    )
    started = time.perf_counter()
    sliced = interlocks(connection)
    in_sql = time.perf_counter() - started
    started = time.perf_counter()
    graph = rg.from_companies(records)
    built = time.perf_counter() - started
    started = time.perf_counter()
    expected = rg.interlocks(graph)
    in_graph = time.perf_counter() - started
    try:
        pd.testing.assert_frame_equal(sliced, expected)
        equal = "equal"
    except AssertionError as error:
        equal = f"DIFFERENT: {str(error).splitlines()[0]}"
    print(
        f"{'interlocks, first companies by id':<34} {len(records):>10,} companies   DuckDB {in_sql:.2f} s   "
        f"regkit.graph {in_graph:.2f} s (+ {built:.1f} s to build the graph)   "
        f"graph / DuckDB {(in_graph + built) / in_sql:.1f}x   {len(sliced):,} rows, {equal}"
    )


if __name__ == "__main__":
    main()
