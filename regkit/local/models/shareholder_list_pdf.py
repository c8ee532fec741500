"""The shareholder list (Gesellschafterliste, § 40 GmbHG) of a company as a PDF with the table of the GesLV.

The Gesellschafterlistenverordnung (GesLV) asks for one row per share: its running number, the shareholder's name
or firm, the seat (a company) or the date of birth and place of residence (a person), the nominal amount of the
share in EUR, the percentage of the share in the capital and the percentage of the shareholder's total holding.
:func:`shareholder_list_pdf` writes that table with fpdf2, page after page when it is long, with text that
PDF readers extract (``regkit.frames.shareholder_list`` reads it back with PDFium, the tests also with
pdfplumber). The file's creation date is the list's own date, so the bytes are the same run after run.

Numbers are written the German way (``42.000,00`` EUR, ``33,3333`` %); a percentage is written with as many
decimals as it needs to be read back exactly (at least one), so the parsed table equals the ownership history of
the same document. A list with a character outside Latin-1 is written in DejaVu Sans, embedded (the subset the
list uses), so every name is written as it is (``Cottbus - Chóśebuz``); it is the copy matplotlib ships, so
nothing is downloaded. Embedding it takes about ten times as long as writing the list, so a list whose text is
all Latin-1 (nearly every one) is written in the PDF core font Helvetica instead.

Names and seats are written with their white space normalised (:func:`normalise_text`: a run of white space is
one space, none at either end), as in the register. They are broken into lines by this writer, not by fpdf2, so
that the text of a cell read back character by character is the text written: a line that ends at a space keeps
that space (an invisible last character), and a word too long for a line is cut where the line is full, with
nothing between its pieces — ``regkit.frames.shareholder_list`` joins a cell's characters as they come.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fpdf import FPDF
from fpdf.enums import TableCellFillMode

from .ownership_history import shareholder_list

if TYPE_CHECKING:
    from .backend import RegisterContext

__all__ = [
    "COLUMNS",
    "TITLE",
    "document_entries",
    "filed_shareholder_list_pdf",
    "format_eur",
    "format_percent",
    "normalise_text",
    "seat_or_birth",
    "shareholder_list_pdf",
]

TITLE = "Liste der Gesellschafter"
"""The first line of every shareholder list's first page (what a reader checks for)."""

COLUMNS = (
    "Lfd. Nr.",
    "Name / Firma",
    "Sitz bzw. Geburtsdatum und Wohnort",
    "Nennbetrag (EUR)",
    "Anteil (%)",
    "Gesamt (%)",
)
"""The table's column headings, in order (the six items of § 1 (3), § 2, § 4 GesLV)."""

_WIDTHS = (12, 60, 50, 28, 20, 20)
_FONT = "DejaVuSans"
_NOTE = "Synthetisches Dokument des lokalen regkit-Registers; keine echte Registereintragung."


@cache
def _font_files() -> tuple[Path, Path]:
    """DejaVu Sans, regular and bold, as matplotlib (a dependency of regkit) ships it — found, not imported."""
    spec = importlib.util.find_spec("matplotlib")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        fonts = Path(folder) / "mpl-data" / "fonts" / "ttf"
        regular, bold = fonts / "DejaVuSans.ttf", fonts / "DejaVuSans-Bold.ttf"
        if regular.is_file() and bold.is_file():
            return regular, bold
    raise FileNotFoundError("DejaVu Sans not found in matplotlib's data: reinstall matplotlib (pip install matplotlib)")


def normalise_text(text: str) -> str:
    """A name or seat as the list writes it: each run of white space one space, none at either end.

    Examples
    --------
    >>> normalise_text("  Ida \t Roth  ")
    'Ida Roth'
    """
    return " ".join(str(text).split())


def _wrap(width_of: Callable[[str], float], text: str, width: float) -> str:
    """``text`` (normalised) in lines no wider than ``width``, joined by newlines; their characters in order are
    ``text``: a line broken at a space ends with that space, and a word longer than a line is cut where the line
    is full (at least one character a line)."""
    lines: list[str] = []
    line = ""
    words = text.split(" ")
    for index, word in enumerate(words):
        piece = word if index == len(words) - 1 else word + " "
        if width_of(line + piece) <= width:
            line += piece
            continue
        if line:
            lines.append(line)
        while width_of(piece) > width:
            cut = 1
            while cut < len(piece) and width_of(piece[: cut + 1]) <= width:
                cut += 1
            lines.append(piece[:cut])
            piece = piece[cut:]
        line = piece
    lines.append(line)
    return "\n".join(lines)


def format_eur(cents: int) -> str:
    """Cents as euros the German way.

    Examples
    --------
    >>> format_eur(4200000), format_eur(-5), format_eur(12345678901)
    ('42.000,00', '-0,05', '123.456.789,01')
    """
    sign = "-" if cents < 0 else ""
    euros, rest = divmod(abs(int(cents)), 100)
    return f"{sign}{euros:,}".replace(",", ".") + f",{rest:02d}"


def format_percent(value: float) -> str:
    """A percentage with a decimal comma and as many decimals as it needs to be read back exactly (at least one).

    Examples
    --------
    >>> format_percent(84.0), format_percent(33.3333), format_percent(12.5)
    ('84,0', '33,3333', '12,5')
    """
    text = repr(float(value))
    if "e" in text or "E" in text:
        text = f"{float(value):.12f}".rstrip("0")
        text = text + "0" if text.endswith(".") else text
    return text.replace(".", ",")


def _german_date(iso: str) -> str:
    day = dt.date.fromisoformat(str(iso)[:10])
    return f"{day.day:02d}.{day.month:02d}.{day.year:04d}"


def seat_or_birth(entry: Mapping[str, Any]) -> str:
    """The third column of a row: ``geb. 16.09.1980, Ahnatal`` for a person, the seat for anything else.

    Examples
    --------
    >>> seat_or_birth({"entity_type": "natural_person", "date_of_birth": "1980-09-16", "city": "Ahnatal"})
    'geb. 16.09.1980, Ahnatal'
    >>> seat_or_birth({"entity_type": "german_company", "city": "Hamburg"})
    'Hamburg'
    """
    city = entry.get("city") or ""
    if entry.get("entity_type", "natural_person") == "natural_person":
        born = entry.get("date_of_birth")
        parts = [f"geb. {_german_date(born)}" if born else "", city]
        return ", ".join(part for part in parts if part)
    return city


def document_entries(
    owners: Iterable[Mapping[str, Any]],
    document_id: str,
    details: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """The rows of one shareholder list from the owners of an ownership-history answer, in the list's order.

    Parameters
    ----------
    owners : iterable of dict
        The ``owners`` of ``GET /v1/company/{id}/owners/historical`` (each with ``ownership_history``).
    document_id : str
        The shareholder list.
    details : mapping, optional
        Owner id → ``{"date_of_birth", "city"}`` (a person's birth date and residence, a company's seat).

    Returns
    -------
    list of dict
        One entry per owner the list names (``id``, ``name``, ``entity_type``, ``nominal_shares``,
        ``percentage_shares``, ``date_of_birth``, ``city``), largest nominal amount first, then by name: what
        :func:`shareholder_list_pdf` takes.

    Examples
    --------
    >>> owners = [{"id": "p-1", "name": "Ida Roth", "entity_type": "natural_person", "ownership_history": [
    ...     {"document_id": "d-1", "document_date": "2019-04-01", "nominal_shares": 2500000,
    ...      "percentage_shares": 100.0}]}]
    >>> document_entries(owners, "d-1", {"p-1": {"city": "Kassel"}})[0]["city"]
    'Kassel'
    """
    details = details or {}
    rows = []
    for owner in owners:
        for entry in owner.get("ownership_history") or ():
            if entry["document_id"] != document_id:
                continue
            extra = details.get(owner.get("id") or "", {})
            rows.append(
                {
                    "id": owner.get("id"),
                    "name": owner["name"],
                    "entity_type": owner.get("entity_type", "natural_person"),
                    "nominal_shares": int(entry["nominal_shares"]),
                    "percentage_shares": float(entry["percentage_shares"]),
                    "date_of_birth": extra.get("date_of_birth"),
                    "city": extra.get("city"),
                }
            )
    return sorted(rows, key=lambda r: (-r["nominal_shares"], r["name"], r["id"] or ""))


def _rows(entries: Iterable[Mapping[str, Any]]) -> list[tuple[str, ...]]:
    entries = list(entries)
    totals: dict[str, float] = {}
    for entry in entries:
        key = entry.get("id") or entry["name"]
        totals[key] = totals.get(key, 0.0) + float(entry["percentage_shares"])
    return [
        (
            str(position),
            normalise_text(entry["name"]),
            normalise_text(seat_or_birth(entry)),
            format_eur(int(entry["nominal_shares"])),
            format_percent(entry["percentage_shares"]),
            format_percent(round(totals[entry.get("id") or entry["name"]], 10)),
        )
        for position, entry in enumerate(entries, start=1)
    ]


class _ListPDF(FPDF):
    font_name = "Helvetica"

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font(self.font_name, size=8)
        self.cell(0, 5, f"Seite {self.page_no()} von {{nb}}", align="C")


def shareholder_list_pdf(company: Mapping[str, Any], document: Mapping[str, Any], entries: Iterable[Any]) -> bytes:
    """The shareholder list ``document`` of ``company`` as PDF bytes, its table made of ``entries``.

    Parameters
    ----------
    company : dict
        The company record (``id``, ``name.name``, ``register`` with ``register_court``, ``register_type``,
        ``register_number``).
    document : dict
        The ``shareholder_list`` entry of the company's ``documents`` (``id``, ``date``).
    entries : iterable of dict
        One per share, in the order of the list: ``name``, ``nominal_shares`` (int, cents of nominal capital) and
        ``percentage_shares`` (percent) — the ownership history entry of this document — with the owner's
        ``entity_type`` (``natural_person`` or another type of the ownership history), ``id`` (shares with the
        same id, or name, make one total holding), ``date_of_birth`` (ISO, persons) and ``city`` (residence or
        seat), each optional.

    Returns
    -------
    bytes
        A PDF: title :data:`TITLE`, the company, its register, the list's date and document id, then the table
        (:data:`COLUMNS`; headings repeated on every page) and the total nominal capital. The same arguments give
        the same bytes.
    """
    register = company.get("register") or {}
    rows = _rows(entries)
    court = " ".join(str(register.get(k) or "") for k in ("register_court", "register_type", "register_number")).strip()
    day = dt.date.fromisoformat(str(document["date"])[:10])
    pdf = _ListPDF(orientation="portrait", unit="mm", format="A4")
    pdf.set_creation_date(dt.datetime(day.year, day.month, day.day, tzinfo=dt.timezone.utc))
    pdf.set_title(f"{TITLE} - {company['name']['name']}")
    pdf.set_producer("regkit local register")
    pdf.set_auto_page_break(auto=True, margin=16)
    pdf.set_margins(10, 12, 10)
    head = [
        "gemäß § 40 GmbHG",
        f"Gesellschaft: {company['name']['name']}",
        f"Register: {court}",
        f"Unternehmens-ID: {company['id']}",
        f"Stand der Liste: {_german_date(document['date'])}",
        f"Dokument-ID: {document['id']}",
    ]
    if not _latin1(head, rows):  # the core fonts write Latin-1 only; DejaVu (slower to embed) everything
        regular, bold = _font_files()
        pdf.add_font(_FONT, "", str(regular))
        pdf.add_font(_FONT, "B", str(bold))
        pdf.font_name = _FONT
    pdf.add_page()
    pdf.set_font(pdf.font_name, style="B", size=15)
    pdf.cell(0, 9, TITLE, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(pdf.font_name, size=10)
    for line in head:
        pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    pdf.set_font(pdf.font_name, size=8.5)
    with pdf.table(
        col_widths=_WIDTHS,
        text_align=("RIGHT", "LEFT", "LEFT", "RIGHT", "RIGHT", "RIGHT"),
        line_height=4.5,
        repeat_headings=1,
        cell_fill_mode=TableCellFillMode.NONE,
    ) as table:
        table.row(COLUMNS)
        # the free width of a cell (fpdf2 splits the page's width by the weights), less a hair for rounding
        free = [pdf.epw * weight / sum(_WIDTHS) - 2 * pdf.c_margin - 0.01 for weight in _WIDTHS]
        for row in rows:
            table.row(
                [_wrap(pdf.get_string_width, cell, free[i]) if i in (1, 2) else cell for i, cell in enumerate(row)]
            )
    pdf.ln(3)
    pdf.set_font(pdf.font_name, size=10)
    total = sum(int(entry_cents) for entry_cents in (_cents(row[3]) for row in rows))
    pdf.cell(0, 6, f"Summe der Nennbeträge: {format_eur(total)} EUR", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(pdf.font_name, size=8)
    pdf.cell(0, 6, _NOTE, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def _latin1(head: list[str], rows: list[tuple[str, ...]]) -> bool:
    try:
        "".join(head + [cell for row in rows for cell in row]).encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


def _cents(text: str) -> int:
    return int(text.replace(".", "").replace(",", ""))


def filed_shareholder_list_pdf(context: RegisterContext, document_id: str) -> bytes | None:
    """The PDF of the filed shareholder list ``document_id``: its content as the ownership history has it
    (:func:`regkit.local.models.ownership_history.shareholder_list`), written by :func:`shareholder_list_pdf`.

    ``None`` when no company lists a shareholder list of that id.
    """
    found = shareholder_list(context, document_id)
    if found is None:
        return None
    company, content = found
    return shareholder_list_pdf(company, {"id": content["document_id"], "date": content["date"]}, content["holders"])
