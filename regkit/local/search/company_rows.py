"""Company search: what the index keeps of one company — its search result, its text, its filter values.

A company (a CompanyV1 record of the world) becomes one :class:`CompanyRow`: the result the search answers
with (:func:`company_result`), the folded text the query matches (the current name; the former names, the
register number and the city), and one value per filter column (:data:`COLUMNS`). Amounts are kept as the
filters compare them: the capital in EUR (``DEM`` converted at the fixed rate, ``USD`` left out: it has no
fixed rate), the financial indicators of the latest reported year in cents. The WZ 2025 codes of a company
are kept with every code above them (:func:`wz_ancestors`), so that a filter on a code matches the codes below
it by equality.
"""

from __future__ import annotations

import csv
import functools
from collections.abc import Iterable, Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any, NamedTuple

from regkit.schema.courts import reference_dir
from regkit.schema.interface import DEM_PER_EUR
from regkit.schema.research import COMPANY_AMOUNT_FIELDS

from ..json_lines import dump_text
from .query import fold

__all__ = [
    "CompanyRow",
    "COLUMNS",
    "AMOUNTS",
    "company_row",
    "company_result",
    "court_key",
    "register_number_key",
    "wz_parents",
    "wz_ancestors",
    "country_code",
]

#: The financial indicators the search filters on (EUR ranges; stored in cents).
AMOUNTS = COMPANY_AMOUNT_FIELDS

#: Filter columns of a row, in order: coded text, then dates, numbers and flags.
COLUMNS = (
    "status",
    "legal_form",
    "register_type",
    "court_key",
    "register_number_key",
    "city_key",
    "zip",
    "address_key",
    "purpose_key",
    "capital_currency",
    "incorporated_at",
    "capital_eur",
    *AMOUNTS,
    "employees",
    "had_insolvency",
    "has_open_insolvency",
    "has_lei",
)

#: ISO 3166-1 alpha-2 codes of the country names addresses use (the register writes them in German).
_COUNTRIES = {
    "deutschland": "DE",
    "germany": "DE",
    "osterreich": "AT",
    "schweiz": "CH",
    "niederlande": "NL",
    "luxemburg": "LU",
    "belgien": "BE",
    "frankreich": "FR",
    "danemark": "DK",
    "polen": "PL",
    "tschechien": "CZ",
    "italien": "IT",
    "spanien": "ES",
    "vereinigtes konigreich": "GB",
    "vereinigte staaten": "US",
}
_AMTSGERICHT = "amtsgericht "


class CompanyRow(NamedTuple):
    """One company as the search index keeps it (a named tuple: made once per company, a few million times by an
    import, where a frozen dataclass took two to three times as long to make).

    Attributes
    ----------
    company_id : str
        The company's id.
    result : str
        The search result, as compact JSON text.
    name : str
        The current name, folded (what ranks a match first).
    other : str
        The former names, the register number and the city, folded.
    name_length : int
        Characters of the current name (shorter names rank first).
    values : tuple
        One value per :data:`COLUMNS` entry (``None`` when unknown).
    industry_codes : tuple of str
        The company's WZ 2025 codes and every code above them.
    """

    company_id: str
    result: str
    name: str
    other: str
    name_length: int
    values: tuple[Any, ...]
    industry_codes: tuple[str, ...]


def country_code(name: str | None) -> str | None:
    """The ISO 3166-1 alpha-2 code of a country name as addresses give it (``None`` when unknown).

    Examples
    --------
    >>> country_code("Deutschland"), country_code("Österreich"), country_code("Atlantis")
    ('DE', 'AT', None)
    """
    return _country_code(name) if name else None


@functools.lru_cache(maxsize=1 << 10)  # a handful of names, a million addresses
def _country_code(name: str) -> str | None:
    return _COUNTRIES.get(fold(name).strip())


def court_key(court: str) -> str:
    """A register court as filters compare it: folded, without a leading ``Amtsgericht``.

    Examples
    --------
    >>> court_key("Amtsgericht München"), court_key("munchen")
    ('munchen', 'munchen')
    """
    key = " ".join(fold(court).split())
    return key.removeprefix(_AMTSGERICHT)


def register_number_key(number: str) -> str:
    """A register number as filters compare it: upper case, single spaces (``12345 b`` is ``12345 B``)."""
    return " ".join(number.split()).upper()


@functools.lru_cache(maxsize=4)
def wz_parents(path: str | None = None) -> Mapping[str, str]:
    """Each WZ 2025 code's parent (a section letter's is ``""``), from ``wz2025.csv`` of the reference lists
    (default: :func:`regkit.schema.courts.reference_dir`, where the worlds' reference lists are); empty when the
    file is missing."""
    file = Path(path) if path is not None else reference_dir() / "wz2025.csv"
    if not file.is_file():
        return {}
    with file.open(encoding="utf-8", newline="") as handle:
        return {row["code"]: row["parent"] for row in csv.DictReader(handle)}


def wz_ancestors(code: str, parents: Mapping[str, str]) -> tuple[str, ...]:
    """``code`` and every code above it, up to its section (``46.13.2`` → ``46.13.2, 46.13, 46.1, 46, G``).

    Codes missing from ``parents`` are climbed by their form (``46.13.2`` → ``46.13`` → ``46.1`` → ``46``).

    Examples
    --------
    >>> wz_ancestors("46.13.2", {"46.13.2": "46.13", "46.13": "46.1", "46.1": "46", "46": "G", "G": ""})
    ('46.13.2', '46.13', '46.1', '46', 'G')
    >>> wz_ancestors("46.13.2", {})
    ('46.13.2', '46.13', '46.1', '46')
    """
    found = [code]
    while len(found) < 8:
        current = found[-1]
        parent = parents.get(current)
        if parent is None:
            parent = current[:-1].rstrip(".") if "." in current else ""
        if not parent:
            break
        found.append(parent)
    return tuple(found)


def company_result(record: Mapping[str, Any]) -> dict[str, Any]:
    """The search result of a CompanyV1 record (``POST /v1/search/company``, ``GET /v1/autocomplete/company``)."""
    register = record["register"]
    purpose = record.get("purpose")
    address = record.get("address")
    shown = None
    if address is not None:
        shown = {k: address[k] for k in ("street", "city", "postal_code") if address.get(k) is not None}
        shown["country"] = country_code(address.get("country")) or address.get("country") or "DE"
        if address.get("extra") is not None:
            shown["extra"] = address["extra"]
        shown["formatted_value"] = address["formatted_value"]
    return {
        "company_id": record["id"],
        "name": record["name"]["name"],
        "legal_form": record["legal_form"],
        "register_court": register["register_court"],
        "register_number": register["register_number"],
        "register_type": register["register_type"],
        "active": record["status"] != "inactive",
        "country": "DE",  # every company of the register is registered in Germany (its id starts with DE-)
        "purpose": purpose["purpose"] if purpose else None,
        "address": shown,
    }


def _capital_eur(capital: Mapping[str, Any] | None) -> float | None:
    if not capital or capital.get("amount") is None:
        return None
    amount = Decimal(str(capital["amount"]))
    if capital.get("currency") == "EUR":
        return float(amount)
    if capital.get("currency") == "DEM":
        return float(amount / DEM_PER_EUR)
    return None  # USD: no fixed rate, so no EUR amount


def _latest(indicators: Iterable[Mapping[str, Any]]) -> Mapping[str, Any]:
    return max(indicators, key=lambda entry: entry["date"], default={})


#: Folded values that repeat across companies (courts, cities): folded once each.
_fold_repeated = functools.lru_cache(maxsize=1 << 16)(fold)
_NO_AMOUNTS = (None,) * len(AMOUNTS)


@functools.lru_cache(maxsize=1 << 10)
def _court_value(court: str) -> str:
    """A register court folded, single spaces (the ``court_key`` column's value)."""
    return " ".join(fold(court).split())


def _former_names(record: Mapping[str, Any]) -> list[str]:
    names = record.get("names", ())
    current = record["name"]["name"]
    if len(names) < 2:  # most companies never changed their name
        return [] if not names or names[0].get("name") in (None, "", current) else [names[0]["name"]]
    return list(dict.fromkeys(n["name"] for n in record.get("names", ()) if n.get("name") and n["name"] != current))


def company_row(
    record: Mapping[str, Any], *, open_insolvency: bool, parents: Mapping[str, str] | None = None
) -> CompanyRow:
    """The index row of one CompanyV1 record.

    Parameters
    ----------
    record : mapping
        The company as the world holds it.
    open_insolvency : bool
        Whether one of its insolvency proceedings is open (the world's proceedings know).
    parents : mapping, optional
        The WZ 2025 hierarchy (default :func:`wz_parents`).
    """
    parents = wz_parents() if parents is None else parents
    register, address = record["register"], record.get("address") or {}
    purpose, capital = record.get("purpose"), record.get("capital")
    name = record["name"]["name"]
    latest = _latest(record.get("indicators", ()))
    other = [*_former_names(record), register["register_number"], address.get("city") or ""]
    wz = record.get("industry_codes", {}).get("WZ2025", ())
    codes = {code for entry in wz for code in wz_ancestors(entry["code"], parents)}
    values = (
        record["status"],
        record["legal_form"],
        register["register_type"],
        _court_value(register["register_court"]),
        register_number_key(register["register_number"]),
        _fold_repeated(address.get("city")) or None,
        address.get("postal_code"),
        fold(address.get("formatted_value")) or None,
        fold(purpose["purpose"]) if purpose else None,
        capital.get("currency") if capital else None,
        record.get("incorporated_at"),
        _capital_eur(capital),
        *((latest.get(amount) for amount in AMOUNTS) if latest else _NO_AMOUNTS),
        latest.get("employees"),
        bool(record.get("insolvencies")),
        open_insolvency,
        bool(record.get("lei")),
    )
    return CompanyRow(
        company_id=record["id"],
        result=dump_text(company_result(record)),
        name=fold(name),
        other=fold(" ".join(other)),
        name_length=len(name),
        values=values,
        industry_codes=tuple(sorted(codes)),
    )
