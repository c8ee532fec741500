"""Write the bundled world's shareholder lists as PDFs and read their tables back, timed per list.

The test that every list reads back as its ownership history (``tests/local/test_local_shareholder_list_pdf.py``)
does this for all of them; this measures where the time goes: writing (fpdf2; a list with a character outside
Latin-1 embeds DejaVu Sans), reading (pdfplumber: the PDF's characters, then the table by its ruled lines), and
``pdfplumber`` opening the file alone.

    python benchmarks/bench_shareholder_lists.py            # every list of the world
    python benchmarks/bench_shareholder_lists.py --lists 500
"""

from __future__ import annotations

import argparse
import io
import tempfile
import time
from pathlib import Path

import pdfplumber

from regkit.frames import shareholder_list
from regkit.local import open_local_register
from regkit.local.models.ownership_history import shareholder_lists
from regkit.local.models.shareholder_list_pdf import shareholder_list_pdf


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", type=int, default=0, help="at most this many lists (0: all)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        register = open_local_register(state_path=Path(scratch) / "state.sqlite", rate_limit=None)
        companies = register.context.catalog.world.companies
        filed = []
        for company_id, company in companies.items():
            if any(d["type"] == "shareholder_list" for d in company["documents"] or ()):
                filed += [(company, f) for f in shareholder_lists(register.context, company_id)]
        register.close()
    if args.lists:
        filed = filed[: args.lists]
    started = time.perf_counter()
    pdfs = [shareholder_list_pdf(c, {"id": f["document_id"], "date": f["date"]}, f["holders"]) for c, f in filed]
    written = time.perf_counter()
    for pdf in pdfs:
        with pdfplumber.open(io.BytesIO(pdf)):
            pass
    opened = time.perf_counter()
    rows = sum(len(shareholder_list(pdf)) for pdf in pdfs)
    read = time.perf_counter()
    n = len(pdfs)
    print(f"{n} shareholder lists, {rows} rows, {sum(map(len, pdfs)) / n / 1024:.1f} KiB a file")
    print(f"  write (fpdf2)          {written - started:7.1f} s  {(written - started) / n * 1000:6.1f} ms a list")
    print(f"  open only (pdfplumber) {opened - written:7.1f} s  {(opened - written) / n * 1000:6.1f} ms a list")
    print(f"  read table back        {read - opened:7.1f} s  {(read - opened) / n * 1000:6.1f} ms a list")


if __name__ == "__main__":
    main()
