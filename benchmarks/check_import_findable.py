"""Are the companies of an imported chunk found as a journalist looks for them? By name and by register number.

    python benchmarks/check_import_findable.py CHUNK [CHUNK ...] [--sample 150] [--seed 41]

Imports each chunk of the OffeneRegister bulk file (bz2 or plain JSON lines) into a scratch world, serves it with
the local register (in-process, the requests stack users use), and for a seeded random sample of the chunk's
lines that have a register number:

- **by name**: a company search for the line's full name (``query`` = the name as the file writes it) lists the
  line's company on its first page (100 results);
- **by register number**: ``regkit.parse_company_id`` of the register's own words (``native_company_number``,
  e.g. "Darmstadt früher Dieburg GnR 101") is an id whose company has the line's name (current or former: a line
  merged into another of its company counts if the name is one of the company's names).

Also prints, per chunk, what the import report says of every line: imported, merged, kept apart, skipped — the
target of issue 41 is ≥ 99.5 % of the lines with a register number imported or merged, and ≥ 95 % of the
sampled companies found by name and by number. Reference rows: the lines not found are printed (up to 10).
"""

from __future__ import annotations

import argparse
import bz2
import json
import random
import tempfile
from pathlib import Path

from machine_load import machine_lines

from regkit import parse_company_id
from regkit.errors import RegkitError
from regkit.local import open_local_register
from regkit.local.world.offeneregister import import_offeneregister
from regkit.schema.person_names import normalise


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("chunks", nargs="+", type=Path)
    parser.add_argument("--sample", type=int, default=150)
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()
    print("machine: " + "\n".join(machine_lines(3)))
    for chunk in args.chunks:
        with tempfile.TemporaryDirectory(prefix="findable-") as scratch:
            _check(chunk, Path(scratch), args.sample, args.seed)


def _lines(chunk: Path) -> list[dict]:
    opener = bz2.open if chunk.read_bytes()[:3] == b"BZh" else open
    with opener(chunk, "rb") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _check(chunk: Path, scratch: Path, size: int, seed: int) -> None:
    records = _lines(chunk)
    imported = import_offeneregister(chunk, scratch / "world")
    report = json.loads((imported.directory / "import-report.json").read_text(encoding="utf-8"))
    skipped = report["skipped"]
    numbered = report["lines"] - skipped["no_register_number"] - skipped["not_json"] - skipped["not_a_record"]
    kept = report["imported"] + report["merged"]["lines"]
    print(
        f"\n{chunk.name}: {report['lines']:,} lines, {numbered:,} with a register number: {report['imported']:,} "
        f"companies imported ({report['kept_apart']['lines']:,} kept apart under a new id), "
        f"{report['merged']['lines']:,} lines merged; skipped {report['skipped']}\n"
        f"  imported or merged: {kept:,} of {numbered:,} lines with a register number = {100 * kept / numbered:.2f} %"
        "  (target >= 99.5 %)"
    )
    candidates = [r for r in records if (r.get("all_attributes") or {}).get("_registerNummer") and r.get("name")]
    sample = random.Random(seed).sample(candidates, min(size, len(candidates)))
    register = open_local_register(data_dir=imported.directory, state_path=scratch / "state.sqlite", rate_limit=0)
    session = register.session(register.default_api_key)
    by_name = by_number = 0
    missed: list[str] = []
    try:
        for record in sample:
            attributes = record["all_attributes"]
            try:
                company_id = parse_company_id(str(attributes.get("native_company_number") or ""))
            except RegkitError as error:
                missed.append(f"number: {attributes.get('native_company_number')!r}: {error}")
                company_id = ""
            answer = session.get(f"{register.base_url}/v1/company/{company_id}") if company_id else None
            names = set()
            if answer is not None and answer.status_code == 200:
                names = {normalise(n["name"]) for n in answer.json()["names"]}
            if normalise(record["name"]) in names:
                by_number += 1
            elif company_id:
                missed.append(f"number: {company_id} is not {record['name']!r}")
            search = session.post(
                f"{register.base_url}/v1/search/company",
                json={"query": record["name"], "pagination": {"page": 1, "per_page": 100}},
            )
            found = search.status_code == 200 and any(
                normalise(r["name"]) == normalise(record["name"]) or r["company_id"] == company_id
                for r in search.json()["results"]
            )
            if found:
                by_name += 1
            else:
                missed.append(f"name: {record['name']!r} ({search.status_code}: {search.text[:120]})")
    finally:
        register.close()
    n = len(sample)
    print(
        f"  sampled {n} lines (seed {seed}): found by name {by_name} ({100 * by_name / n:.1f} %), by register "
        f"number {by_number} ({100 * by_number / n:.1f} %)  (target >= 95 % each)"
    )
    for line in missed[:10]:
        print(f"    not found: {line}")


if __name__ == "__main__":
    main()
