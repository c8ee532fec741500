"""The register's files as PDFs (fpdf2): printouts (AD current, CD chronological, HD historical), articles of
association and sample protocols, built from a company record.

Every file is deterministic: the same record and date give the same bytes run after run (the PDF's creation date
is the file's own date at midnight UTC, never the clock; fpdf2 derives the file identifier from the content).
Text is set in Helvetica, so it is extractable (``pdfplumber``, ``pypdf``); characters outside Latin-1 are
folded to their base letter (``ő`` → ``o``) or shown as ``?``.

What each file holds (ours, after the Handelsregister's printouts):

* **AD** (*aktueller Abdruck*): the entry as it stands on the file date — firm, seat and address, purpose,
  capital, representation rule, the representatives in office with their authority, legal form, first
  registration, status.
* **CD** (*chronologischer Abdruck*): every registered change in date order, numbered, each with its date.
* **HD** (*historischer Abdruck*): the entry of the paper register, as it stood on 31 December 2006 (the day
  before the electronic register started); only companies registered before 2007 have one.
* **articles of association** (*Gesellschaftsvertrag / Satzung*) and **sample protocol** (*Musterprotokoll*): the
  firm, seat, purpose, capital and representation as they stood on the document's date.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from fpdf import FPDF

__all__ = [
    "HISTORICAL_CUTOFF",
    "printout_pdf",
    "articles_pdf",
    "sample_protocol_pdf",
    "company_as_of",
    "changes",
    "has_historical_printout",
]

#: The last day of the paper register: a historical printout shows the entry as it stood then.
HISTORICAL_CUTOFF = "2006-12-31"

_PRINTOUT_TITLES = {
    "AD": "Aktueller Abdruck",
    "CD": "Chronologischer Abdruck",
    "HD": "Historischer Abdruck",
}
_ROLES = {
    "DIRECTOR": "Geschäftsführer / Vorstand",
    "PERSONAL_LIABLE_DIRECTOR": "Persönlich haftender Gesellschafter",
    "LIQUIDATOR": "Liquidator",
    "PROKURA": "Prokurist",
    "OWNER": "Inhaber",
    "PARTNER": "Partner",
    "SHAREHOLDER": "Gesellschafter",
}
_STATUS = {"active": "aktiv", "inactive": "gelöscht", "liquidation": "in Liquidation"}


def _latin1(text: object) -> str:
    """``text`` as Helvetica can show it: Latin-1, other letters folded to their base letter, the rest ``?``."""
    out = []
    for char in str(text):
        if ord(char) < 256:
            out.append(char)
            continue
        base = unicodedata.normalize("NFKD", char).encode("latin-1", "ignore").decode("latin-1")
        out.append(base or "?")
    return "".join(out)


def _de_date(iso: str | None) -> str:
    """``2020-06-28`` → ``28.06.2020`` (empty for ``None``)."""
    if not iso:
        return ""
    year, month, day = iso[:10].split("-")
    return f"{day}.{month}.{year}"


def _amount(capital: Mapping[str, Any] | None) -> str:
    if not capital or capital.get("amount") is None:
        return "-"
    whole = f"{float(capital['amount']):,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
    return f"{whole} {capital.get('currency') or 'EUR'}"


def _current(entries: Sequence[Mapping[str, Any]], on: str) -> Mapping[str, Any] | None:
    """The entry of a history (``start_date`` ascending or not) in force on ``on``: the latest that started by then."""
    started = [e for e in entries if (e.get("start_date") or "") <= on]
    return max(started, key=lambda e: e.get("start_date") or "") if started else None


def company_as_of(company: Mapping[str, Any], on: str) -> dict[str, Any]:
    """What a company's entry said on ``on`` (``YYYY-MM-DD``): its name, address, purpose, capital and register
    then, and the representatives in office then (those without a ``start_date`` count as always in office)."""
    people = [
        r
        for r in company.get("representation") or ()
        if (r.get("start_date") or "") <= on and (r.get("end_date") is None or r["end_date"] >= on)
    ]
    return {
        "name": _current(company.get("names") or [company["name"]], on) or company["name"],
        "address": _current(company.get("addresses") or [], on),
        "purpose": _current(company.get("purposes") or [], on),
        "capital": _current(company.get("capitals") or [], on),
        "register": _current(company.get("registers") or [], on) or company.get("register") or {},
        "representation": people,
    }


def has_historical_printout(company: Mapping[str, Any]) -> bool:
    """Whether the company was registered before the electronic register started (2007), so a historical printout
    (HD) of its paper register entry exists."""
    starts = [r.get("start_date") for r in company.get("registers") or () if r.get("start_date")]
    first = min(starts) if starts else company.get("incorporated_at")
    return isinstance(first, str) and first <= HISTORICAL_CUTOFF


def _person(entry: Mapping[str, Any]) -> str:
    details = entry.get("natural_person") or {}
    parts = [entry.get("name") or ""]
    if details.get("city"):
        parts.append(details["city"])
    if details.get("date_of_birth"):
        parts.append(f"*{_de_date(details['date_of_birth'])}")
    legal = entry.get("legal_person") or {}
    if legal.get("city"):
        parts.append(legal["city"])
    return ", ".join(p for p in parts if p)


def changes(company: Mapping[str, Any], until: str | None = None) -> list[tuple[str, str]]:
    """The registered changes of a company as ``(date, text)``, oldest first (ties in a fixed order), up to
    ``until`` if given: registration, names, register moves, addresses, purposes, capital, representatives
    appointed and leaving, merger, status."""
    found: list[tuple[str, int, str]] = []

    def add(date: str | None, rank: int, text: str) -> None:
        if date and (until is None or date <= until):
            found.append((date[:10], rank, text))

    for register in company.get("registers") or ():
        add(
            register.get("start_date"),
            0,
            f"Eintragung in das Register {register.get('register_court', '')} {register.get('register_type', '')} "
            f"{register.get('register_number', '')}",
        )
    for name in company.get("names") or ():
        add(name.get("start_date"), 1, f"Firma: {name.get('name')}")
    for address in company.get("addresses") or ():
        add(address.get("start_date"), 2, f"Geschäftsanschrift: {address.get('formatted_value') or ''}")
    for purpose in company.get("purposes") or ():
        add(purpose.get("start_date"), 3, f"Gegenstand: {purpose.get('purpose')}")
    for capital in company.get("capitals") or ():
        add(capital.get("start_date"), 4, f"Kapital: {_amount(capital)}")
    for entry in company.get("representation") or ():
        role = _ROLES.get(entry.get("role") or "", entry.get("role") or "")
        add(entry.get("start_date"), 5, f"Bestellt als {role}: {_person(entry)}")
        add(entry.get("end_date"), 6, f"Ausgeschieden als {role}: {_person(entry)}")
    merged = company.get("merged_into")
    if isinstance(merged, Mapping) and merged.get("date"):
        add(merged.get("date"), 7, f"Verschmolzen auf {merged.get('name') or merged.get('company_id') or ''}")
    if company.get("terminated_at"):
        add(company["terminated_at"], 8, "Die Gesellschaft ist gelöscht.")
    return [(date, text) for date, _, text in sorted(found, key=lambda item: (item[0], item[1], item[2]))]


class _Document(FPDF):
    """An A4 page layout with the register's header line and ``Seite n von m`` in the footer."""

    def __init__(self, header_line: str, file_date: str):
        super().__init__(format="A4")
        self._header_line = _latin1(header_line)
        self.set_creation_date(dt.datetime.fromisoformat(file_date).replace(tzinfo=dt.timezone.utc))
        self.set_producer("regkit local register")
        self.set_creator("regkit local register")
        self.set_auto_page_break(auto=True, margin=20)
        self.alias_nb_pages()
        self.set_margins(20, 18, 20)

    def header(self) -> None:
        self.set_font("Helvetica", size=8)
        self.cell(0, 5, self._header_line, new_x="LMARGIN", new_y="NEXT")
        self.ln(2)

    def footer(self) -> None:
        self.set_y(-14)
        self.set_font("Helvetica", size=8)
        self.cell(0, 5, f"Seite {self.page_no()} von {{nb}}", align="C")

    def title_block(self, title: str, lines: Iterable[str]) -> None:
        self.set_font("Helvetica", "B", 15)
        self.multi_cell(0, 8, _latin1(title), new_x="LMARGIN", new_y="NEXT")
        self.set_font("Helvetica", size=10)
        for line in lines:
            self.multi_cell(0, 5, _latin1(line), new_x="LMARGIN", new_y="NEXT")
        self.ln(3)

    def section(self, heading: str, lines: Iterable[str]) -> None:
        self.set_font("Helvetica", "B", 11)
        self.multi_cell(0, 6, _latin1(heading), new_x="LMARGIN", new_y="NEXT")
        self.set_font("Helvetica", size=10)
        for line in lines:
            self.multi_cell(0, 5, _latin1(line) or "-", new_x="LMARGIN", new_y="NEXT")
        self.ln(2)

    def bytes(self) -> bytes:
        return bytes(self.output())


def _register_line(company: Mapping[str, Any]) -> str:
    register = company.get("register") or {}
    return (
        f"{register.get('register_court', '')} {register.get('register_type', '')} "
        f"{register.get('register_number', '')}".strip()
    )


_NOTICE = "Synthetisches Dokument des lokalen regkit-Registers; keine echte Registereintragung."


def _entry_sections(pdf: _Document, company: Mapping[str, Any], on: str) -> None:
    """The sections of an entry as it stood on ``on`` (AD and HD)."""
    state = company_as_of(company, on)
    address = state["address"] or {}
    managers = [r for r in state["representation"] if r.get("role") not in ("SHAREHOLDER", "PROKURA")]
    prokura = [r for r in state["representation"] if r.get("role") == "PROKURA"]
    register = state["register"]
    pdf.section(
        "1. Anzahl der bisherigen Eintragungen",
        [str(sum(1 for date, _ in changes(company, on)))],
    )
    pdf.section(
        "2. a) Firma  b) Sitz, Niederlassung, Geschäftsanschrift  c) Gegenstand des Unternehmens",
        [
            f"a) {state['name'].get('name')}",
            f"b) {address.get('city') or '-'}; Geschäftsanschrift: {address.get('formatted_value') or '-'}",
            f"c) {(state['purpose'] or {}).get('purpose') or '-'}",
        ],
    )
    pdf.section("3. Grund- oder Stammkapital", [_amount(state["capital"])])
    representatives = [
        f"{_ROLES.get(r.get('role') or '', r.get('role'))}: {_person(r)}"
        + (f"; {r['authority']}" if r.get("authority") else "")
        + (f" (seit {_de_date(r.get('start_date'))})" if r.get("start_date") else "")
        for r in managers
    ]
    pdf.section(
        "4. a) Allgemeine Vertretungsregelung  b) Vertretungsberechtigte und besondere Vertretungsbefugnis",
        [f"a) {company.get('representation_rule') or '-'}", "b)", *(representatives or ["-"])],
    )
    pdf.section(
        "5. Prokura",
        [f"{_person(r)} (seit {_de_date(r.get('start_date'))})" for r in prokura] or ["-"],
    )
    status = "gelöscht" if company.get("terminated_at") and company["terminated_at"] <= on else None
    pdf.section(
        "6. a) Rechtsform, Beginn, Satzung oder Gesellschaftsvertrag  b) Sonstige Rechtsverhältnisse",
        [
            f"a) Rechtsform: {state['name'].get('legal_form') or company.get('legal_form') or '-'}; "
            f"eingetragen seit {_de_date(register.get('start_date')) or '-'}",
            f"b) Status: {status or _STATUS.get(str(company.get('status')), company.get('status') or '-')}",
        ],
    )
    pdf.section(
        "7. a) Tag der letzten Eintragung",
        [_de_date(max((date for date, _ in changes(company, on)), default=None)) or "-"],
    )


def printout_pdf(company: Mapping[str, Any], code: str, file_date: str) -> bytes:
    """The printout ``code`` (``"AD"``, ``"CD"`` or ``"HD"``) of ``company`` made on ``file_date``.

    Examples
    --------
    >>> company = {"name": {"name": "Muster GmbH", "legal_form": "gmbh"}, "register": {}, "names": [
    ...     {"name": "Muster GmbH", "legal_form": "gmbh", "start_date": "2020-01-02"}]}
    >>> printout_pdf(company, "AD", "2026-06-30")[:8]
    b'%PDF-1.3'
    """
    if code not in _PRINTOUT_TITLES:
        raise ValueError(f"unknown printout {code!r}; AD, CD or HD")
    on = HISTORICAL_CUTOFF if code == "HD" else file_date
    pdf = _Document(f"Handelsregister {_register_line(company)} - {_PRINTOUT_TITLES[code]}", file_date)
    pdf.add_page()
    name = company_as_of(company, on)["name"].get("name")
    pdf.title_block(
        f"{_PRINTOUT_TITLES[code]} ({code})",
        [
            f"{name}",
            f"{_register_line(company)}",
            f"Abruf vom {_de_date(file_date)}"
            + (f"; Stand des Papierregisters am {_de_date(HISTORICAL_CUTOFF)}" if code == "HD" else ""),
            _NOTICE,
        ],
    )
    pdf.section(
        "Hinweise",
        [
            "Dieser Abdruck gibt den Inhalt des Registerblatts wieder; die Eintragungen folgen ab Seite 2.",
            {
                "AD": "Der aktuelle Abdruck zeigt die Eintragungen, die am Tag des Abrufs gelten.",
                "CD": "Der chronologische Abdruck zeigt jede Eintragung mit ihrem Datum, die älteste zuerst.",
                "HD": "Der historische Abdruck zeigt das Registerblatt des Papierregisters vor der Umstellung "
                "auf das elektronische Register (1. Januar 2007).",
            }[code],
        ],
    )
    pdf.add_page()
    if code == "CD":
        for number, (date, text) in enumerate(changes(company, file_date), start=1):
            pdf.section(f"Eintragung Nr. {number} vom {_de_date(date)}", [text])
    else:
        _entry_sections(pdf, company, on)
    return pdf.bytes()


def articles_pdf(company: Mapping[str, Any], document: Mapping[str, Any]) -> bytes:
    """The articles of association (Gesellschaftsvertrag / Satzung) of ``company`` in the version of ``document``."""
    on = document["date"]
    state = company_as_of(company, on)
    address = state["address"] or {}
    pdf = _Document(f"{_register_line(company)} - Gesellschaftsvertrag / Satzung", on)
    pdf.add_page()
    pdf.title_block(
        "Gesellschaftsvertrag / Satzung",
        [
            f"{state['name'].get('name')}",
            f"Fassung vom {_de_date(on)}" + (" (aktuelle Fassung)" if document.get("latest") else ""),
            f"Dokument {document['id']}",
            _NOTICE,
        ],
    )
    pdf.section(
        "§ 1 Firma und Sitz",
        [f"Die Firma lautet {state['name'].get('name')}.", f"Sitz der Gesellschaft ist {address.get('city') or '-'}."],
    )
    pdf.section("§ 2 Gegenstand des Unternehmens", [(state["purpose"] or {}).get("purpose") or "-"])
    pdf.section("§ 3 Kapital", [f"Das Kapital der Gesellschaft beträgt {_amount(state['capital'])}."])
    pdf.section("§ 4 Vertretung", [company.get("representation_rule") or "-"])
    pdf.section("§ 5 Dauer, Geschäftsjahr", ["Die Gesellschaft ist auf unbestimmte Zeit errichtet."])
    return pdf.bytes()


def sample_protocol_pdf(company: Mapping[str, Any], document: Mapping[str, Any]) -> bytes:
    """The sample protocol (Musterprotokoll, § 2 Abs. 1a GmbHG) of ``company``'s foundation in ``document``."""
    on = document["date"]
    state = company_as_of(company, on)
    address = state["address"] or {}
    founders = [r for r in state["representation"] if r.get("role") == "SHAREHOLDER"]
    directors = [r for r in state["representation"] if r.get("role") == "DIRECTOR"]
    pdf = _Document(f"{_register_line(company)} - Musterprotokoll", on)
    pdf.add_page()
    pdf.title_block(
        f"Musterprotokoll vom {_de_date(on)}",
        [f"{state['name'].get('name')}", f"Dokument {document['id']}", _NOTICE],
    )
    pdf.section(
        "1. Gründung",
        [
            f"Die Gesellschafter errichten die Gesellschaft unter der Firma {state['name'].get('name')} "
            f"mit dem Sitz in {address.get('city') or '-'}."
        ],
    )
    pdf.section("2. Gegenstand", [(state["purpose"] or {}).get("purpose") or "-"])
    pdf.section("3. Stammkapital", [f"Das Stammkapital beträgt {_amount(state['capital'])}."])
    pdf.section("4. Gesellschafter", [_person(r) for r in founders] or ["-"])
    pdf.section("5. Geschäftsführer", [_person(r) for r in directors] or ["-"])
    return pdf.bytes()
