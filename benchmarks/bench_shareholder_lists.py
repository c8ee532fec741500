"""Write the bundled world's shareholder lists as PDFs and read their tables back, timed per list.

The test that every list reads back as its ownership history (``tests/local/test_local_shareholder_list_pdf.py``)
does this for all of them; this measures where the time goes: writing (fpdf2; a list with a character outside
Latin-1 embeds DejaVu Sans) and reading the table back (pdfminer.six without its layout analysis: the page's
characters and the rectangles of its cells), side by side with pdfplumber reading the same tables (its
characters, then the table by its ruled lines: how ``shareholder_list`` read them before), which needs pdfplumber
(in the ``test`` extra).

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
    rows = sum(len(shareholder_list(pdf)) for pdf in pdfs)
    read = time.perf_counter()
    plumbed = sum(_pdfplumber_rows(pdf) for pdf in pdfs)
    read_by_pdfplumber = time.perf_counter()
    n = len(pdfs)
    print(f"{n} shareholder lists, {rows} rows, {sum(map(len, pdfs)) / n / 1024:.1f} KiB a file")
    print(
        f"  write (fpdf2)                    {written - started:7.1f} s  {(written - started) / n * 1000:6.1f} ms a list"
    )
    print(f"  read back (shareholder_list)     {read - written:7.1f} s  {(read - written) / n * 1000:6.1f} ms a list")
    print(
        f"  pdfplumber, the same tables      {read_by_pdfplumber - read:7.1f} s  "
        f"{(read_by_pdfplumber - read) / n * 1000:6.1f} ms a list  ({plumbed} rows)"
    )
    print(f"  pdfplumber / shareholder_list    {(read_by_pdfplumber - read) / (read - written):7.1f} ×")


def _pdfplumber_rows(pdf: bytes) -> int:
    """The rows of the tables pdfplumber finds in ``pdf`` (the first row of each page, the headings, left out):
    its characters and its tables by their ruled lines, as ``shareholder_list`` read them before."""
    rows = 0
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        for page in document.pages:
            page.extract_text()  # the first page's header, and every page's characters
            rows += sum(len(table.rows) - 1 for table in page.find_tables())
    return rows


if __name__ == "__main__":
    main()
