"""Export a cache of 100,000 company answers to Parquet; print rows, seconds and peak memory beside the targets.

Target (issue 14, "The cache as a dataset"): exporting 100,000 cached companies takes under 60 s and under
1.5 GB peak on two cores.

How the cache is built (quickly, and as the client stores answers):

1. the bundled world's 5,000 companies are fetched once through ``regkit.Client`` from the local register
   in-process, into a fresh SQLite cache (what a user's cache holds after ``client.get_companies(ids)``);
2. each stored answer is copied ``--companies / 5,000 - 1`` times under new company ids, through public APIs only:
   the answer is read with ``client.cache.scan()``, the id is replaced everywhere in the body and the request URL
   (``DE-HRB-B1204-17572`` → ``DE-HRB-B1204-90117572``: ``9``, the copy's number, the original number, so no
   copy collides with a world id), and the copy is written with requests-cache's ``save_response`` as a
   ``CachedResponse`` under a new key (a hash of the new URL; the export reads every answer, so the key need not be
   the one the client would compute), in the client's own stored format.

The export then runs in a fresh subprocess (``regkit.export_cli.export_cache(cache, out)``, as ``regkit export parquet``), so its peak resident
memory (``ru_maxrss``) is its own: imports, both passes, the part files and the manifest.

    python benchmarks/bench_export.py [--companies 100000] [--cache PATH] [--keep DIR]

``--cache PATH`` builds the cache there (or reuses it when it already holds at least ``--companies`` answers);
``--keep DIR`` writes the export there instead of a temporary directory.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_SECONDS = 60.0
TARGET_PEAK_MIB = 1536.0

_CHILD = r"""
import json, resource, sys, time
started = time.perf_counter()
from regkit.export_cli import export_cache
manifest = export_cache(sys.argv[1], sys.argv[2])
seconds = time.perf_counter() - started
print(json.dumps({"seconds": seconds, "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "tables": {name: t["rows"] for name, t in manifest["tables"].items()},
                  "files": sum(len(t["files"]) for t in manifest["tables"].values()),
                  "answers": sum(s["exported"] for s in manifest["sources"].values())}))
"""


def fetch_world(cache: Path, state: Path) -> tuple[int, float]:
    """Fetch every company of the bundled world once into the SQLite cache ``cache``; (companies, seconds)."""
    from regkit.client import Client
    from regkit.local import open_local_register
    from regkit.local.world import read_world

    ids = sorted(read_world().companies)
    register = open_local_register(state_path=state, rate_limit=None)
    started = time.perf_counter()
    with Client(api_key="demo-paid", base_url=register.base_url, adapter=register.adapter, cache=cache) as client:
        batch = client.get_companies(ids, progress=False)
    register.close()
    return len(batch.ok), time.perf_counter() - started


def _copy_id(company_id: str, copy: int) -> str:
    head, number, suffix = re.fullmatch(r"(DE-[A-Za-z]+-[A-Z]\d{4}-)(\d+)([A-Z]{0,2})", company_id).groups()
    return f"{head}9{copy:02d}{number}{suffix}"


def add_copies(cache: Path, copies: int) -> tuple[int, float]:
    """Write ``copies`` variants of every stored company answer of ``cache``; (answers written, seconds)."""
    from requests_cache import CachedRequest, CachedResponse

    from regkit.client import Client

    started = time.perf_counter()
    written = 0
    with Client(base_url="http://bench.invalid", api_key="bench", cache=cache, ledger_file=None) as client:
        backend = client.cache.backend
        originals = list(client.cache.scan())
        for answer in originals:
            match = re.search(r"/v1/company/([^/?]+)$", answer.url)
            if match is None:
                continue
            original = match.group(1)
            quoted = f'"{original}"'.encode()
            for copy in range(1, copies + 1):
                new = _copy_id(original, copy)
                url = answer.url.replace(original, new)
                response = CachedResponse(
                    content=answer.body.replace(quoted, f'"{new}"'.encode()),  # the id, never a longer one
                    url=url,
                    status_code=answer.status,
                    headers=answer.headers,
                    request=CachedRequest(method=answer.method, url=url, headers=answer.request_headers),
                    created_at=answer.created_at,
                    expires=answer.expires,
                )
                key = hashlib.sha256(url.encode()).hexdigest()[:16]
                backend.save_response(response, cache_key=key, expires=answer.expires)
                written += 1
    return written, time.perf_counter() - started


def stored(cache: Path) -> int:
    """Answers the cache holds (0 if there is no cache yet)."""
    if not cache.exists():
        return 0
    from regkit.client import Client

    with Client(base_url="http://bench.invalid", api_key="bench", cache=cache, ledger_file=None) as client:
        return int(client.cache.info()["responses"])


def build_cache(cache: Path, companies: int) -> None:
    """A cache of ``companies`` company answers at ``cache`` (reused when it already holds enough)."""
    if stored(cache) >= companies:
        print(f"cache: reusing {cache} ({stored(cache):,} answers)")
        return
    fetched, seconds = fetch_world(cache, cache.parent / "register-state.sqlite")
    print(f"cache: fetched the world's {fetched:,} companies through the client in {seconds:.1f} s")
    copies = max(0, -(-companies // fetched) - 1)
    inserted, seconds = add_copies(cache, copies)
    size = cache.stat().st_size / 2**20
    print(
        f"cache: {copies} copies of each under new ids, {inserted:,} answers in {seconds:.1f} s "
        f"({stored(cache):,} answers, {size:,.0f} MiB)"
    )


def export(cache: Path, out: Path) -> dict:
    """Run the export in a fresh interpreter; its own measurements."""
    result = subprocess.run(
        [sys.executable, "-c", _CHILD, str(cache), str(out)], capture_output=True, text=True, check=False
    )
    if result.returncode:
        raise SystemExit(f"the export failed:\n{result.stderr}")
    return json.loads(result.stdout.splitlines()[-1])


def report(companies: int, measured: dict) -> None:
    """Rows, seconds and peak MiB beside the targets, and the tables' rows."""
    ok = lambda good: "ok" if good else "MISSED"  # noqa: E731
    rows = measured["tables"]["companies"]
    print(
        f"\nexport of {rows:,} cached companies ({measured['answers']:,} answers, {measured['files']} part files, "
        "0 credits):"
    )
    print(f"  {'':<22}{'measured':>12}{'target':>12}")
    print(f"  {'companies (rows)':<22}{rows:>12,}{companies:>12,}  {ok(rows >= companies)}")
    seconds, peak = measured["seconds"], measured["peak_mib"]
    print(f"  {'seconds':<22}{seconds:>12.1f}{'< ' + str(int(TARGET_SECONDS)):>12}  {ok(seconds < TARGET_SECONDS)}")
    print(f"  {'peak MiB':<22}{peak:>12,.0f}{'< ' + str(int(TARGET_PEAK_MIB)):>12}  {ok(peak < TARGET_PEAK_MIB)}")
    print("\nrows per table:")
    for name, count in measured["tables"].items():
        print(f"  {name:<24}{count:>12,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--companies", type=int, default=100_000, help="company answers in the cache")
    parser.add_argument("--cache", type=Path, default=None, help="build (or reuse) the cache here")
    parser.add_argument("--keep", type=Path, default=None, help="write the export here (a new directory)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-export-") as scratch:
        cache = args.cache or Path(scratch) / "cache.sqlite"
        cache.parent.mkdir(parents=True, exist_ok=True)
        build_cache(cache, args.companies)
        measured = export(cache, args.keep or Path(scratch) / "export")
    report(args.companies, measured)


if __name__ == "__main__":
    main()
