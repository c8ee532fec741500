"""Cut ``sample.jsonl.bz2`` from chunks of the OffeneRegister bulk file (how the committed sample was made).

    python benchmarks/cut_offeneregister_sample.py CHUNK [CHUNK ...] --out data/offeneregister/sample.jsonl.bz2

Deterministic for the same chunks: the records are chosen by the rules below (then a seeded random fill), and
written in the order of the chunks and their lines, unchanged. Not shipped in the wheel; see data/offeneregister/NOTICE.md.
"""

from __future__ import annotations

import argparse
import bz2
import json
import random
import re
from collections import Counter, defaultdict
from pathlib import Path

from regkit.local.world.offeneregister.mapping import BadRecord, CourtLookup, map_record
from regkit.schema.courts import courts

SIZE = 3000
_LIQUIDATION = re.compile(r"\bi\.\s?L\.|\bin Liquidation\b")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("chunks", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    lookup = CourtLookup(courts())
    lines: list[bytes] = []
    mapped = []
    for chunk in args.chunks:
        with bz2.open(chunk, "rb") as handle:
            for raw in handle:
                try:
                    company = map_record(json.loads(raw), lookup)
                except BadRecord:
                    continue
                lines.append(raw.rstrip(b"\n"))
                mapped.append(company)
    chosen: set[int] = set()
    by_key: dict[str, list[int]] = defaultdict(list)
    person_at: dict[str, set[int]] = defaultdict(set)
    for index, company in enumerate(mapped):
        by_key[company.link_key].append(index)
        for entry in company.record["representation"]:
            if entry["type"] == "natural_person" and entry["id"]:
                person_at[entry["id"]].add(index)
    # a GmbH as general partner (or liquidator) of a KG, both in the sample, linked by name and seat
    pairs = 0
    for index, company in enumerate(mapped):
        for _, key in company.pending:
            if len(by_key.get(key, ())) == 1 and pairs < 25:
                chosen |= {index, by_key[key][0]}
                pairs += 1
    # the person at most companies (a shelf-company founder) and 40 others shared by several companies
    shared = sorted(((len(at), pid) for pid, at in person_at.items() if len(at) > 1), reverse=True)
    chosen |= set(sorted(person_at[shared[0][1]])[:60])
    for _, pid in shared[1:41]:
        chosen |= set(sorted(person_at[pid])[:6])
    rng = random.Random(24)
    # every register type, court, position text, status; cooperatives in liquidation; suffixed numbers
    groups: dict[str, list[int]] = defaultdict(list)
    for index, company in enumerate(mapped):
        record = company.record
        groups[f"type:{record['register']['register_type']}"].append(index)
        groups[f"court:{record['register']['register_court']}"].append(index)
        groups[f"status:{record['status']}"].append(index)
        if " " in record["register"]["register_number"]:
            groups["suffix"].append(index)
        if record["register"]["register_type"] == "GnR" and record["status"] == "liquidation":
            groups["eg i.L."].append(index)
        if _LIQUIDATION.search(record["name"]["name"]):
            chosen.add(index)  # every name marked "i.L." (cooperatives among them), registered or removed
        if len(record["names"]) > 1:
            groups["former names"].append(index)
        for entry in record["representation"]:
            groups[f"role:{entry['role']}:{entry['type']}"].append(index)
            if entry["end_date"]:
                groups["ended"].append(index)
    for _, members in sorted(groups.items()):
        unique = sorted(set(members))
        chosen |= set(rng.sample(unique, min(len(unique), 40)))
    rest = sorted(set(range(len(mapped))) - chosen)
    chosen |= set(rng.sample(rest, max(0, SIZE - len(chosen))))
    with bz2.open(args.out, "wb", compresslevel=9) as out:
        for index in sorted(chosen):
            out.write(lines[index] + b"\n")
    kinds = Counter(mapped[i].record["register"]["register_type"] for i in chosen)
    print(f"{len(chosen)} records ({dict(kinds)}), {pairs} linked pairs, busiest person at {shared[0][0]} companies")


if __name__ == "__main__":
    main()
