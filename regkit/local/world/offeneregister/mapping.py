"""One OffeneRegister record (OpenCorporates JSON) → a CompanyV1 record of a world, and what was derived for it.

The source holds names and former names, a registered address (about one record in five), the seat
(``registered_office``), the status (``currently registered`` / ``removed``), the register (type, number, court)
and officers with their position texts, dates, towns and authority wordings. It holds no dates of birth, no
incorporation date, no dates of former names, no financials, shareholdings or insolvencies. What CompanyV1
requires and the source lacks is derived by the rules of :data:`DERIVED_RULES` and listed per company; what the
schema lets be null or empty stays null or empty.

The company id is ``DE-<register type>-<court>-<number>``, the court being the one that **issued** the number.
When courts were merged, the court that took a register over kept the numbers the former court had issued, and
the record names both: ``"Darmstadt früher Dieburg GnR 101"`` (``former_registrar``, ``native_company_number``).
Three cooperatives of that register hold number 101, issued by Dieburg, Lampertheim and Fürth (Hesse):
``DE-GnR-M1104-101``, ``DE-GnR-M1111-101``, ``DE-GnR-M1105-101``. The former court is looked up by name in
the record's federal state (:meth:`CourtLookup.issuing`); the second court code of ``company_number``
(``M1103_M1104_GnR101``) is a cross-check only: for "Darmstadt früher Fürth" it gives ``D3304V``, the
register court of Fürth in Bavaria. ``register.register_court`` stays the court that keeps the register now.

:func:`map_record` raises :class:`BadRecord` (with its kind) for a record that cannot become a company:
no register number, an unknown court. An officer with a position text of no known role is kept with role
``OTHER`` and reported as ``unknown_position``.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
import uuid
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from regkit.schema.courts import COURT_CODE, Courts, normalise_name, state_letter
from regkit.schema.interface import COMPANY_ID_PATTERN
from regkit.schema.person_names import name_key, normalise

__all__ = [
    "BadRecord",
    "CourtLookup",
    "DERIVED_RULES",
    "MappedCompany",
    "PERSON_NAMESPACE",
    "ROLES",
    "company_key",
    "former_registrar",
    "legal_form_of",
    "map_record",
    "parse_address",
    "parse_company_officer",
    "person_id",
]

#: The namespace of the persons' derived UUIDs: ``uuid5(PERSON_NAMESPACE, "<name key>|<city>")``.
PERSON_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://regkit.example/offeneregister/person")

#: German position texts of the register (folded by :func:`~regkit.schema.person_names.normalise`) → role.
ROLES: dict[str, str] = {
    "geschaeftsfuehrer": "DIRECTOR",
    "geschaeftsfuehrerin": "DIRECTOR",
    "vorstand": "DIRECTOR",
    "vorstandsmitglied": "DIRECTOR",
    "prokurist": "PROKURA",
    "prokuristin": "PROKURA",
    "liquidator": "LIQUIDATOR",
    "liquidatorin": "LIQUIDATOR",
    "abwickler": "LIQUIDATOR",
    "inhaber": "OWNER",
    "inhaberin": "OWNER",
    "persoenlich haftender gesellschafter": "PERSONAL_LIABLE_DIRECTOR",
    "partner": "PARTNER",
}

#: What each derived member means (copied into ``world.json`` → ``derived.rules``).
DERIVED_RULES: dict[str, str] = {
    "incorporated_at": "the source has no incorporation date: the earliest date the record holds (an officer's "
    "start or end date), else the day the record was retrieved",
    "names.start_date": "the source has no dates of names: every name (former names first, in the source's "
    "order, then the current one) starts at the derived incorporated_at",
    "address.start_date": "the source has no date of the address: the derived incorporated_at",
    "address.city": "the record has no registered address: the city is the seat (registered_office)",
    "legal_form": "the source has no legal form: read from the name and the register type (unknown when neither says)",
    "status": "liquidation: a current liquidator or a name marked 'i.L.' / 'in Liquidation' of a registered "
    "company (the source says only registered or removed)",
    "representation.start_date": "the officer's start date is missing in the source: the derived incorporated_at",
    "representation.id": "every natural person's id (not listed per company): uuid5 of their name key (regkit.schema.person_names.name_key) and "
    "folded city; there are no dates of birth, so namesakes of one town are one person. Companies: the id "
    "of the one company of the world whose current name and seat equal the officer's (listed per company)",
}

_LIQUIDATION_NAME = re.compile(r"(?:\bi\.\s?L\.|\bin Liquidation\b|\bin Abwicklung\b)", re.IGNORECASE)
_NUMBER = re.compile(r"\s*([0-9]+)\s*([A-Z]{1,2})?\s*")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_POSTAL = re.compile(r"^(?P<street>.*?),?\s*(?P<postal>[0-9]{5})\s+(?P<city>.+?)\.?\s*$")
_REGISTER_TYPES = ("HRB", "HRA", "PR", "GnR", "VR")
_fold = lru_cache(maxsize=1 << 18)(normalise)  # towns, positions and company names repeat


class BadRecord(Exception):
    """A record that cannot become a company of the world; ``kind`` says why (a key of the import report)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind
        self.message = message


@dataclass
class MappedCompany:
    """A mapped record: the CompanyV1 ``record``, its seat key for linking, what was derived, what was odd.

    Attributes
    ----------
    record : dict
        CompanyV1 without ``sources``.
    link_key : str
        ``<folded current name>|<folded seat>``, what a company officer elsewhere must equal to be linked.
    pending : list of (int, str)
        Representation entries of companies waiting for the second pass: (index, link key).
    derived : list of str
        The derived members of this record (``"incorporated_at"``, ``"representation[2].id"``, ...).
    warnings : list of (str, str)
        (kind, detail) of what was kept but is odd: ``unknown_position``, ``court_mismatch``, and for a register
        another court took over, ``issuing_court_mismatch``, ``issuing_court_from_company_number``,
        ``issuing_court_unknown`` (:meth:`CourtLookup.issuing`).
    retrieved : str
        The day the record was retrieved (``YYYY-MM-DD``), or ``""``.
    """

    record: dict[str, Any]
    link_key: str
    pending: list[tuple[int, str]] = field(default_factory=list)
    derived: list[str] = field(default_factory=list)
    warnings: list[tuple[str, str]] = field(default_factory=list)
    retrieved: str = ""


def company_key(name: str | None, seat: str | None) -> str:
    """The key a company and a company officer are matched by: folded name and folded seat."""
    return f"{_fold(name)}|{_fold(seat)}"


def person_id(first_name: str | None, last_name: str | None, name: str | None, city: str | None) -> str | None:
    """A natural person's derived UUID: uuid5 of the identity rule's name key and the folded city.

    Examples
    --------
    >>> person_id("Hans Peter", "Müller", None, "Köln") == person_id("Hans", "Peter Mueller", None, "KÖLN")
    True
    """
    key = name_key(first_name, last_name, name)
    if not key:
        return None
    return _uuid5(f"{key}|{_fold(city)}")


_NAMESPACE_BYTES = PERSON_NAMESPACE.bytes


def _uuid5(name: str) -> str:
    """``str(uuid.uuid5(PERSON_NAMESPACE, name))`` without building a UUID object (a million persons and more)."""
    digest = bytearray(hashlib.sha1(_NAMESPACE_BYTES + name.encode("utf-8"), usedforsecurity=False).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x50  # version 5
    digest[8] = (digest[8] & 0x3F) | 0x80  # the RFC 4122 variant
    text = digest.hex()
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


class CourtLookup:
    """The register courts of the bundled lists (:func:`regkit.schema.courts.courts`), looked up by the register's
    own court names, remembered once seen (a file names a few hundred courts millions of times)."""

    def __init__(self, courts: Courts):
        self.courts = courts
        self._seen: dict[tuple[str, str], tuple[str, bool] | BadRecord] = {}
        self._issuing: dict[tuple[str, str, str, str], tuple[str, str, str]] = {}

    def official(self, code: str) -> str:
        """The court's official name, as records carry it (``"Amtsgericht Freiburg"``)."""
        return self.courts.by_code[code].official

    def resolve(self, registrar: str, company_number: str) -> tuple[str, bool]:
        """The five-character court code of ``registrar`` (the register's own court name) and whether the
        source's ``company_number`` (``B1204_HRB260632``) agrees. Several courts of one name are told apart by
        that code, else by which is a current registrar; a name of no court raises :class:`BadRecord`
        ``unknown_court``."""
        source_code = company_number.split("_", 1)[0][:5] if company_number else ""
        key = (registrar, source_code)
        found = self._seen.get(key)
        if found is None:
            found = self._seen[key] = self._resolve(registrar, source_code)
        if isinstance(found, BadRecord):
            raise BadRecord(found.kind, found.message)
        return found

    def _resolve(self, registrar: str, source_code: str) -> tuple[str, bool] | BadRecord:
        courts = self.courts
        codes = courts.full_names.get(normalise_name(registrar or ""), frozenset())
        if len(codes) > 1 and source_code in codes:
            codes = frozenset({source_code})
        if len(codes) > 1:
            current = frozenset(c for c in codes if courts.by_code[c].current)
            codes = current if len(current) == 1 else codes
        if len(codes) != 1:
            what = "several courts" if codes else "no court of the bundled court lists"
            return BadRecord("unknown_court", f"register court {registrar!r} names {what}")
        code = next(iter(codes))
        return code, code == source_code

    def issuing(self, former: str, state: str | None, current: str, company_number: str) -> tuple[str, str, str]:
        """The code of the court that issued the number of a register ``current`` (a code) took over from the
        court named ``former`` ("Darmstadt früher Dieburg": ``"Dieburg"``), looked up in the record's federal
        ``state`` (else ``current``'s), with ``company_number``'s second court code (``M1103_M1104_GnR101``) as a
        cross-check. Returns (code, warning kind, detail): the kind is ``""`` when both agree,
        ``issuing_court_mismatch`` when the name's court and the code differ (the name is used),
        ``issuing_court_from_company_number`` when the lists name no such court but the code is one of that state,
        ``issuing_court_unknown`` when neither tells (the current court's code is used)."""
        letter = (state_letter(state) if isinstance(state, str) else None) or current[0]
        parts = company_number.split("_")
        hint = parts[1][:5] if len(parts) == 3 and COURT_CODE.fullmatch(parts[1]) else ""
        key = (former, letter, current, hint)  # a few hundred courts: remembered, not looked up per record
        found = self._issuing.get(key)
        if found is None:
            found = self._issuing[key] = self._issuing_court(former, letter, current, hint)
        code, kind, detail = found
        return code, kind, f"{detail}; company_number {company_number!r}" if kind else ""

    def _issuing_court(self, former: str, letter: str, current: str, hint: str) -> tuple[str, str, str]:
        code = self.courts.issuing_court(former, letter)
        said = f"früher {former!r} in the state of {letter}"
        if code is not None:
            if hint and hint != code:
                return code, "issuing_court_mismatch", f"{said} is {code}, not {hint}"
            return code, "", ""
        if hint and hint[0] == letter and hint in self.courts.known_codes:
            return (
                hint,
                "issuing_court_from_company_number",
                f"{said}: no court of the lists; {hint} of company_number used",
            )
        return (
            current,
            "issuing_court_unknown",
            f"{said}: no court of the lists, no code of that state in company_number; {current} used",
        )


def legal_form_of(name: str, register_type: str) -> str:
    """The legal form a name and register type state (the interface's codes), ``"unknown"`` when neither does.

    Examples
    --------
    >>> legal_form_of("Weiss GmbH & Co. KG", "HRA"), legal_form_of("Alpha UG (haftungsbeschränkt)", "HRB")
    ('kg', 'ug')
    """
    if register_type == "VR":
        return "ev"
    if register_type == "GnR":
        return "eg"
    if register_type == "PR":
        return "unknown"
    text = f" {_fold(name)} "
    if register_type == "HRB":
        for needle, form in (
            (" ug haftungsbeschraenkt ", "ug"),
            (" unternehmergesellschaft ", "ug"),
            (" ggmbh ", "ggmbh"),
            (" kgaa ", "kgaa"),
            (" gmbh ", "gmbh"),
            (" mbh ", "gmbh"),
            (" gesellschaft mit beschraenkter haftung ", "gmbh"),
            (" se ", "se"),
            (" ag ", "ag"),
            (" aktiengesellschaft ", "ag"),
        ):
            if needle in text:
                return form
        return "unknown"
    for needle, form in (
        (" ewiv ", "ewiv"),
        (" kg ", "kg"),
        (" kommanditgesellschaft ", "kg"),
        (" ohg ", "ohg"),
        (" offene handelsgesellschaft ", "ohg"),
        (" e k ", "ek"),
        (" e kfm ", "ek"),
        (" e kfr ", "ek"),
        (" eingetragener kaufmann ", "ek"),
        (" eingetragene kauffrau ", "ek"),
    ):
        if needle in text:
            return form
    return "unknown"


def parse_address(text: str | None, seat: str | None) -> tuple[dict[str, str], bool]:
    """The registered address as street, postal code and city (``"Siemensstraße 10, 79331 Teningen."``). An
    address without a postal code (the source cut many at an abbreviation's full stop: ``"Siemensstr."``)
    keeps what it has as street (a ``c/o`` part as ``extra``) with the seat as city; no address, the seat as
    city. Returns the members and whether the city is the seat.

    Examples
    --------
    >>> parse_address("Siemensstraße 10, 79331 Teningen.", "Teningen")
    ({'street': 'Siemensstraße 10', 'city': 'Teningen', 'postal_code': '79331'}, False)
    >>> parse_address("c/o IMS Gear GmbH, Heinrich-Hertzstr.", "Donaueschingen")
    ({'extra': 'c/o IMS Gear GmbH', 'street': 'Heinrich-Hertzstr.', 'city': 'Donaueschingen'}, True)
    """
    members: dict[str, str] = {}
    if text and text.strip():
        match = _POSTAL.match(text.strip())
        if match and match["city"]:
            street = match["street"].strip(" ,")
            members = {"street": street} if street else {}
            return {**members, "city": match["city"].strip(), "postal_code": match["postal"]}, False
        street = text.strip()
        if street.lower().startswith("c/o") and ", " in street:
            extra, _, street = street.partition(", ")
            members["extra"] = extra
        members["street"] = street
    return {**members, "city": (seat or "").strip()}, True


def parse_company_officer(text: str) -> tuple[str, str | None, str | None]:
    """A company officer as the source writes it → (name, seat, authority).

    ``"Wilser Verwaltungs GmbH, Karlsruhe (Amtsgericht Mannheim HRB 701998), mit der Befugnis … abzuschließen."``
    → ``("Wilser Verwaltungs GmbH", "Karlsruhe", "mit der Befugnis … abzuschließen")``; the register reference
    in parentheses is dropped (the source often cuts it at "i. Br.").

    Examples
    --------
    >>> parse_company_officer(": Gumbmann Beton Verwaltung GmbH, Erlangen (Amtsgericht Fürth HRB 685).")
    ('Gumbmann Beton Verwaltung GmbH', 'Erlangen', None)
    """
    text = text.strip().lstrip(":").strip()
    authority = None
    head = text
    if "(" in text:
        head, _, rest = text.partition("(")
        _, closed, after = rest.partition(")")
        after = after.strip(" ,.") if closed else ""
        authority = after or None
    head = head.strip().rstrip(",.").strip()
    if ", " in head:
        name, _, seat = head.rpartition(", ")
        return name.strip(), seat.strip() or None, authority
    return head, None, authority


_FORMER = re.compile(r"\b(?:früher|frueher)\s+(?P<court>.+?)\s+(?:HRB|HRA|GnR|VR|PR)\b", re.IGNORECASE)


def former_registrar(attributes: dict[str, Any]) -> str:
    """The former court that issued the number of a register another court took over, as the record names it
    (``former_registrar``, else the "früher" part of ``native_company_number``), or ``""``.

    Examples
    --------
    >>> former_registrar({"native_company_number": "Darmstadt früher Dieburg GnR 101"})
    'Dieburg'
    >>> former_registrar({"former_registrar": "Emden", "native_company_number": "Aurich früher Emden HRB 100741"})
    'Emden'
    """
    named = attributes.get("former_registrar")
    named = named.strip() if isinstance(named, str) else ""
    if named:
        return named
    native = attributes.get("native_company_number")
    if not isinstance(native, str) or "her" not in native:  # a substring test per record, not a regex
        return ""
    match = _FORMER.search(unicodedata.normalize("NFC", native))
    return match["court"].strip() if match else ""


def _date(value: Any) -> str | None:
    return value if isinstance(value, str) and _DATE.fullmatch(value) else None


def _register_number(attributes: dict[str, Any]) -> tuple[str, str]:
    """(number as the register writes it, the id's number): ``("53 EC", "53EC")``."""
    number = str(attributes.get("_registerNummer") or "").strip()
    suffix = str(attributes.get("_registerNummerSuffix") or "").strip()
    match = _NUMBER.fullmatch(f"{number} {suffix}".strip()) if number else None
    if match is None:
        raise BadRecord("no_register_number", f"no register number (_registerNummer={number!r})")
    digits, letters = match.group(1), match.group(2) or ""
    return (f"{digits} {letters}" if letters else digits), digits + letters


def map_record(source: dict[str, Any], courts: CourtLookup) -> MappedCompany:
    """Map one source record (see the module docstring).

    Parameters
    ----------
    source : dict
        One line of the OffeneRegister file.
    courts : CourtLookup
        The bundled court lists.

    Raises
    ------
    BadRecord
        ``not_a_record``, ``no_register_number``, ``unknown_court``.
    """
    if not isinstance(source, dict) or not isinstance(source.get("all_attributes"), dict):
        raise BadRecord("not_a_record", "a JSON value without all_attributes")
    attributes = source["all_attributes"]
    register_type = attributes.get("_registerArt")
    if register_type not in _REGISTER_TYPES:
        raise BadRecord("no_register_number", f"no register type of {_REGISTER_TYPES} ({register_type!r})")
    number, id_number = _register_number(attributes)
    company_number = str(source.get("company_number") or "")
    code, agrees = courts.resolve(str(attributes.get("registrar") or ""), company_number)
    warnings: list[tuple[str, str]] = []
    issuer = code
    former_court = former_registrar(attributes)
    if former_court:
        issuer, kind, detail = courts.issuing(former_court, attributes.get("federal_state"), code, company_number)
        if kind:
            warnings.append((kind, detail))
    company_id = f"DE-{register_type}-{issuer}-{id_number}"
    if not COMPANY_ID_PATTERN.match(company_id):
        raise BadRecord("no_register_number", f"register number {number!r} forms no company id")
    name = str(source.get("name") or "").strip()
    if not name:
        raise BadRecord("not_a_record", "a record without a name")
    if not agrees:
        warnings.append(
            ("court_mismatch", f"{attributes.get('registrar')!r} is {code}, company_number {company_number!r}")
        )
    seat = attributes.get("registered_office")
    retrieved = str(source.get("retrieved_at") or "")[:10]
    officers = [o for o in source.get("officers") or () if isinstance(o, dict)]
    spans = [(_date(o.get("start_date")), _date(o.get("end_date"))) for o in officers]
    dates = [d for span in spans for d in span if d]
    incorporated = min(dates) if dates else (retrieved if _DATE.fullmatch(retrieved) else "1900-01-01")
    derived = ["incorporated_at", "names.start_date", "address.start_date", "legal_form"]
    legal_form = legal_form_of(name, register_type)
    former = [
        str(p.get("company_name")).strip()
        for p in source.get("previous_names") or ()
        if isinstance(p, dict) and p.get("company_name")
    ]
    names = [{"name": n, "legal_form": legal_form_of(n, register_type), "start_date": incorporated} for n in former]
    names.append({"name": name, "legal_form": legal_form, "start_date": incorporated})
    members, from_seat = parse_address(source.get("registered_address"), seat)
    if from_seat:
        derived.append("address.city")
    formatted = ", ".join(
        part for part in (members.get("street"), f"{members.get('postal_code', '')} {members['city']}".strip()) if part
    )
    address = {**members, "country": "Deutschland", "start_date": incorporated, "formatted_value": formatted}
    representation: list[dict[str, Any]] = []
    pending: list[tuple[int, str]] = []
    for officer, span in zip(officers, spans):
        entry, odd = _officer(officer, span, incorporated, derived, len(representation))
        if odd:
            warnings.append(("unknown_position", odd))
        if entry.get("type") == "legal_person":
            legal = entry["legal_person"]
            pending.append((len(representation), company_key(legal["name"], legal["city"])))
        representation.append(entry)
    status = "active" if source.get("current_status") == "currently registered" else "inactive"
    if status == "active" and (
        _LIQUIDATION_NAME.search(name)
        or any(e["role"] == "LIQUIDATOR" and e["end_date"] is None for e in representation)
    ):
        status = "liquidation"
        derived.append("status")
    register = {
        "company_id": company_id,
        "register_number": number,
        "register_type": register_type,
        "register_court": courts.official(code),
    }
    record: dict[str, Any] = {
        "id": company_id,
        "register": register,
        "registers": [dict(register)],
        "status": status,
        "name": dict(names[-1]),
        "names": names,
        "address": address,
        "addresses": [dict(address)],
        "purpose": None,
        "purposes": [],
        "capital": None,
        "capitals": [],
        "representation": representation,
        "representation_rule": None,
        "indicators": [],
        "legal_form": legal_form,
        "documents": [],
        "incorporated_at": incorporated,
        "notarized_at": None,
        "terminated_at": None,
        "merged_into": None,
        "acquisitions": [],
        "asset_spin_offs": [],
        "profit_transfer_agreement": None,
        "industry_codes": {"WZ2025": []},
        "contact": None,
    }
    return MappedCompany(record, company_key(name, seat), pending, derived, warnings, retrieved)


def _officer(
    officer: dict[str, Any], span: tuple[str | None, str | None], incorporated: str, derived: list[str], index: int
) -> tuple[dict[str, Any], str]:
    """One officer (``span``: its start and end dates, when they are dates) → a representation entry, and the
    position text when it names no known role."""
    position = str(officer.get("position") or "")
    role = ROLES.get(_fold(position))
    odd = "" if role else position or "(no position)"
    given = officer.get("other_attributes")
    attributes: dict[str, Any] = given if isinstance(given, dict) else {}
    start, end = span
    if start is None:
        derived.append(f"representation[{index}].start_date")
    entry: dict[str, Any] = {
        "id": None,
        "name": "",
        "type": "natural_person",
        "role": role or "OTHER",
        "start_date": start or incorporated,
        "end_date": end,
        "authority": attributes.get("flag") or None,
    }
    raw_name = str(officer.get("name") or "").strip()
    if officer.get("type") == "company":
        name, seat, authority = parse_company_officer(raw_name)
        entry.update(
            name=name,
            type="legal_person",
            authority=entry["authority"] or authority,
            legal_person={"name": name, "city": seat, "country": "DE"},
        )
        return entry, odd
    first = attributes.get("firstname") or None  # "title" is a trade ("Küchenmeister"): in no name
    last = attributes.get("lastname") or None
    city = attributes.get("city") or None
    entry.update(
        id=person_id(first, last, raw_name, city),
        name=raw_name or " ".join(p for p in (first, last) if p),
        natural_person={"city": city, "first_name": first, "last_name": last, "date_of_birth": None},
    )
    return entry, odd
