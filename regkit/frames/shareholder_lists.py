"""A shareholder list (Gesellschafterliste) PDF read back into a frame: its GesLV table, row by row.

The local register writes each ``shareholder_list`` document as a PDF whose first page starts with the title
``Liste der Gesellschafter``, names the company, its register, the list's date (``Stand der Liste``) and its
``Dokument-ID``, and then carries the table of the GesLV (running number, name or firm, seat or date of birth and
residence, nominal amount in EUR, percentage of the share, percentage of the total holding), headings repeated
on every page. :func:`shareholder_list` reads that table with pdfminer.six, without its layout analysis: each
cell is drawn as a rectangle, so the cells are found by their borders, and a cell's text is the characters whose
centre lies inside it, in the order they are written, wrapped lines included. It gives one row per share — the
same numbers and names as the ownership history of the same document (``regkit.frames.ownership_history``):
``share`` and ``total_share`` are **fractions** in [0, 1] as in every regkit frame (the printed percentages / 100,
as :func:`regkit.frames.share_fraction` puts them), ``percentage`` and ``total_percentage`` the percentages as
printed.

A cell's text is its characters in the order they are written, joined with nothing between them: the writer
breaks a cell's lines itself, a line broken at a space ending with that space and a word too long for a line cut
with nothing between its pieces, so a long word reads back whole. Names and seats are written with their white
space normalised — a run of white space is one space, none at either end, as in the register — and read so.
"""

from __future__ import annotations

import io
import os
import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from regkit.errors import ValidationError

from ._columns import CENTS_EUR, DATE, FLOAT, INT, STR, build_frame, rows_to_columns
from ._input import wrong_kind
from .ownership import share_fraction

__all__ = ["SHAREHOLDER_LIST_TITLE", "shareholder_list"]

SHAREHOLDER_LIST_TITLE = "Liste der Gesellschafter"
"""The title a shareholder list's first page starts with."""

_SPEC = [
    ("company_id", STR),
    ("document_id", STR),
    ("document_date", DATE),
    ("position", INT),
    ("holder_name", STR),
    ("seat_or_birth", STR),
    ("holder_date_of_birth", DATE),
    ("holder_city", STR),
    ("nominal_share", CENTS_EUR),
    ("share", FLOAT),
    ("total_share", FLOAT),
    ("percentage", FLOAT),
    ("total_percentage", FLOAT),
]
_HEADER = {
    "company_id": re.compile(r"^Unternehmens-ID: (\S+)$", re.M),
    "document_id": re.compile(r"^Dokument-ID: (\S+)$", re.M),
    "document_date": re.compile(r"^Stand der Liste: (\d\d)\.(\d\d)\.(\d{4})$", re.M),
}
_BIRTH = re.compile(r"^geb\. (\d\d)\.(\d\d)\.(\d{4})(?:, (.*))?$")
_EUR = re.compile(r"^-?\d{1,3}(?:\.\d{3})*,\d\d$")
_PERCENT = re.compile(r"^-?\d+,\d+$")
_EXPECTED = (
    "expected a shareholder list (Gesellschafterliste) as the local register files it: a PDF whose first page "
    f"starts with '{SHAREHOLDER_LIST_TITLE}' and carries the GesLV table (Lfd. Nr., Name / Firma, Sitz bzw. "
    "Geburtsdatum und Wohnort, Nennbetrag, Anteil, Gesamtbeteiligung)"
)


def _not_a_list(source: str, why: str) -> ValidationError:
    return ValidationError(
        f"{source} is not a shareholder list: {why}",
        suggestion=_EXPECTED + "; download one with the document's category 'shareholder_list'",
    )


def _read(pdf: bytes | str | os.PathLike[str]) -> tuple[bytes, str]:
    if isinstance(pdf, (bytes, bytearray, memoryview)):
        data, source = bytes(pdf), "the PDF given as bytes"
    elif isinstance(pdf, (str, os.PathLike)):
        path = Path(pdf)
        source = str(path)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ValidationError(
                f"cannot read {path}: {exc.strerror or exc}", suggestion="pass the path of a downloaded PDF"
            ) from exc
    else:
        raise wrong_kind(
            "a shareholder list PDF as bytes or the path of a downloaded file",
            pdf,
            "pass the path of a downloaded list (client.download(documents, directory)[i].path) or the PDF's bytes",
            function="shareholder_list",
        )
    if not data.startswith(b"%PDF"):
        raise _not_a_list(source, "it is not a PDF (it does not start with '%PDF')")
    return data, source


def _pages(data: bytes, source: str) -> Iterator[Any]:
    """The pages of the PDF ``data`` as pdfminer lays them out without analysing the layout: each page's
    characters and drawn shapes, in the order the page draws them (``LTChar``, ``LTRect``, ...)."""
    from pdfminer.converter import PDFPageAggregator  # a reader only this builder needs: imported on first use
    from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
    from pdfminer.pdfpage import PDFPage

    resources = PDFResourceManager()
    device = PDFPageAggregator(resources, laparams=None)
    interpreter = PDFPageInterpreter(resources, device)
    try:
        for page in PDFPage.get_pages(io.BytesIO(data)):
            interpreter.process_page(page)
            yield device.get_result()
    except Exception as exc:  # pdfminer's errors have no common base (PSException, PDFException, ValueError, ...)
        raise _not_a_list(source, f"the PDF cannot be read ({type(exc).__name__}: {exc})") from exc


def _date(match: re.Match[str] | None) -> str | None:
    return None if match is None else f"{match.group(3)}-{match.group(2)}-{match.group(1)}"


def _group(match: re.Match[str] | None) -> str | None:
    return None if match is None else match.group(1)


def _number(text: str, pattern: re.Pattern[str], source: str, position: str) -> str:
    flat = text.replace("\n", "")
    if not pattern.match(flat):
        raise _not_a_list(source, f"row {position}: {flat!r} is not a number written as the list writes it")
    return flat


def _row(cells: Sequence[str | None], source: str) -> tuple[Any, ...]:
    number, name, seat, nominal, share, total = (cell or "" for cell in cells)
    position = number.strip()
    if not position.isdigit():
        raise _not_a_list(source, f"a table row starts with {position!r}, not a running number")
    name, seat = " ".join(name.split()), " ".join(seat.split())
    birth = _BIRTH.match(seat)
    cents = int(_number(nominal, _EUR, source, position).replace(".", "").replace(",", ""))
    percent = float(_number(share, _PERCENT, source, position).replace(",", "."))
    total_percent = float(_number(total, _PERCENT, source, position).replace(",", "."))
    return (
        int(position),
        name,
        seat or None,
        _date(birth),
        (birth.group(4) if birth else seat) or None,
        cents,
        share_fraction(percent, 100),
        share_fraction(total_percent, 100),
        percent,
        total_percent,
    )


def _table_rows(layout: Any) -> list[list[tuple[float, float, float, float]]]:
    """The ruled table of a page: its cells, the rectangles the page draws, in rows from the top, each row's
    cells from the left (``(left, bottom, right, top)``, PDF points). A row is the rectangles that share their
    bottom and top (to a tenth of a point)."""
    from pdfminer.layout import LTRect

    rows: dict[tuple[float, float], list[tuple[float, float, float, float]]] = {}
    for shape in layout:
        if isinstance(shape, LTRect):
            left, bottom, right, top = shape.bbox
            rows.setdefault((round(bottom, 1), round(top, 1)), []).append((left, bottom, right, top))
    return [sorted(rows[extent]) for extent in sorted(rows, key=lambda extent: -extent[1])]


def _cell_texts(layout: Any, rows: Sequence[Sequence[tuple[float, float, float, float]]]) -> list[list[str]]:
    """The text of each cell of ``rows`` (see :func:`_table_rows`): the page's characters whose centre lies in
    the cell, in the order the page writes them, joined with nothing between them."""
    from pdfminer.layout import LTChar

    bottoms = [row[0][1] for row in reversed(rows)]  # ascending, for bisect
    found: list[list[list[str]]] = [[[] for _ in row] for row in rows]
    for char in layout:
        if not isinstance(char, LTChar):
            continue
        y = (char.y0 + char.y1) / 2
        below = bisect_right(bottoms, y) - 1
        if below < 0:
            continue
        row = len(rows) - 1 - below
        if y > rows[row][0][3]:
            continue
        x = (char.x0 + char.x1) / 2
        for column, cell in enumerate(rows[row]):
            if cell[0] <= x <= cell[2]:
                found[row][column].append(char.get_text())
                break
    return [["".join(cell) for cell in row] for row in found]


def _page_text(layout: Any) -> str:
    """A page's text in the order it is written, a new line wherever the writing moves to another line (the
    baseline moves by more than a point)."""
    from pdfminer.layout import LTChar

    text: list[str] = []
    baseline: float | None = None
    for char in layout:
        if isinstance(char, LTChar):
            if baseline is not None and abs(char.y0 - baseline) > 1:
                text.append("\n")
            baseline = char.y0
            text.append(char.get_text())
    return "".join(text)


def shareholder_list(pdf: bytes | str | os.PathLike[str]) -> pd.DataFrame:
    """The table of a shareholder list PDF, one row per share.

    Parameters
    ----------
    pdf : bytes, str or path
        The PDF's bytes or the path of a downloaded file.

    Returns
    -------
    pandas.DataFrame
        In the list's order:

        ====================  ==============  ==========================================================
        company_id            str             the ``Unternehmens-ID`` the list prints
        document_id           str             the ``Dokument-ID`` the list prints
        document_date         datetime64[us]  the list's date (``Stand der Liste``)
        position              Int64           the running number of the share
        holder_name           str             name or firm, each run of white space one space
        seat_or_birth         str             the third column as printed; NaN when empty
        holder_date_of_birth  datetime64[us]  natural persons (``geb. 16.09.1980, …``); NaT otherwise
        holder_city           str             residence of a person, seat of a company
        nominal_share         Float64         EUR, exact to the cent
        share                 Float64         **fraction** of the capital this share is, in [0, 1]:
                                              ``percentage`` / 100
        total_share           Float64         **fraction** of the capital the holder holds in all:
                                              ``total_percentage`` / 100
        percentage            Float64         percent of the capital this share is, as printed
        total_percentage      Float64         percent of the capital the holder holds in all, as printed
        ====================  ==============  ==========================================================

    Raises
    ------
    regkit.ValidationError
        When the file is not a PDF, or not a shareholder list (no title :data:`SHAREHOLDER_LIST_TITLE`, no
        table, a row whose numbers are not written as the list writes them); the message names what was
        expected. A path that cannot be read is one too.
    regkit.errors.ArgumentError
        When ``pdf`` is neither bytes nor a path (also a ``TypeError``).

    Examples
    --------
    >>> from regkit.local.models.shareholder_list_pdf import shareholder_list_pdf
    >>> company = {"id": "DE-HRB-B1234-1", "name": {"name": "Alpha GmbH"},
    ...            "register": {"register_court": "Amtsgericht Kassel", "register_type": "HRB",
    ...                         "register_number": "1"}}
    >>> pdf = shareholder_list_pdf(company, {"id": "d-1", "date": "2019-04-01"}, [
    ...     {"name": "Ida Roth", "entity_type": "natural_person", "date_of_birth": "1980-09-16",
    ...      "city": "Kassel", "nominal_shares": 2500000, "percentage_shares": 100.0}])
    >>> shareholder_list(pdf)[["position", "holder_name", "holder_city", "nominal_share", "share", "percentage"]]
       position holder_name holder_city  nominal_share  share  percentage
    0         1    Ida Roth      Kassel        25000.0    1.0       100.0
    """
    data, source = _read(pdf)
    rows = []
    header: dict[str, re.Match[str] | None] = {}
    pages = 0
    for layout in _pages(data, source):
        if not pages:
            first = _page_text(layout)
            if not first.lstrip().startswith(SHAREHOLDER_LIST_TITLE):
                start = " ".join(first.split()[:8]) or "no text"
                raise _not_a_list(source, f"its first page starts with {start!r}")
            header = {name: pattern.search(first) for name, pattern in _HEADER.items()}
        pages += 1
        for cells in _cell_texts(layout, _table_rows(layout))[1:]:  # the first row of each page: headings
            if len(cells) != 6:
                raise _not_a_list(source, f"a table row has {len(cells)} cells, not the GesLV's 6")
            rows.append(_row(cells, source))
    if not pages:
        raise _not_a_list(source, "it has no pages")
    if not rows:
        raise _not_a_list(source, "it has no table of shares")
    company_id, document_id = (_group(header[k]) for k in ("company_id", "document_id"))
    day = _date(header["document_date"])
    full = [(company_id, document_id, day, *row) for row in rows]
    return build_frame(rows_to_columns(full, _SPEC), _SPEC)
