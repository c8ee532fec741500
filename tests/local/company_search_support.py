"""Brute-force oracle of the company search, computed from the world's records and the spec alone.

Nothing here uses the index or its helpers: German spelling is folded, words are matched and filters are
evaluated from the CompanyV1 records, the world's proceedings and the WZ 2025 list (``data/reference``), as
``research-endpoints.md`` states them. The local register's answers must agree with it.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

__all__ = ["CompanyOracle", "fold"]

_TOKEN = re.compile(r"[^\W_]+")
WZ_FILE = Path(__file__).resolve().parents[2] / "data" / "reference" / "wz2025.csv"


def fold(text: str | None) -> str:
    """Lower case, ä/ae → a, ö/oe → o, ü/ue → u, ß/ss → s (the spec's folding)."""
    text = (text or "").lower()
    for umlaut, plain in (("ä", "a"), ("ö", "o"), ("ü", "u"), ("ß", "s")):
        text = text.replace(umlaut, plain)
    return re.sub(r"ae|oe|ue|ss", lambda m: m.group()[0], text)


def _tokens(text: str | None) -> list[str]:
    return _TOKEN.findall(fold(text))


def _has(tokens: Sequence[str], word: Sequence[str], prefix: bool) -> bool:
    """Whether ``word``'s tokens occur in sequence in ``tokens`` (its last token as a prefix when ``prefix``)."""
    n = len(word)
    for i in range(len(tokens) - n + 1):
        window = tokens[i : i + n]
        if list(window[:-1]) == list(word[:-1]) and (
            window[-1].startswith(word[-1]) if prefix else window[-1] == word[-1]
        ):
            return True
    return False


class CompanyOracle:
    """What the company search must answer over ``world``."""

    def __init__(self, world: Any):
        self.world = world
        self.companies = world.companies
        self.open = {
            p["company_id"] for p in world.insolvencies.values() if p.get("company_id") and p["has_open_insolvency"]
        }
        with WZ_FILE.open(encoding="utf-8") as handle:
            self.parents = {row["code"]: row["parent"] for row in csv.DictReader(handle)}

    # --- text -------------------------------------------------------------------------------------------

    def rank(self, company: Mapping[str, Any], query: str) -> int | None:
        """0: every word in the current name; 1: every word somewhere (former names, register number, city);
        None: no match."""
        words = [tokens for word in query.split() if (tokens := _tokens(word))]
        current = company["name"]["name"]
        name = _tokens(current)
        former = [n["name"] for n in company["names"] if n["name"] != current]
        other = _tokens(
            " ".join(
                [*dict.fromkeys(former), company["register"]["register_number"], company["address"].get("city") or ""]
            )
        )
        last = len(words) - 1
        in_name = [_has(name, w, i == last) for i, w in enumerate(words)]
        if all(in_name):
            return 0
        if all(n or _has(other, w, i == last) for i, (w, n) in enumerate(zip(words, in_name))):
            return 1
        return None

    def search(self, query: str | None = None, filters: Sequence[Mapping[str, Any]] = ()) -> list[str]:
        """Ids of every match in the interface's order."""
        found = []
        for company_id, company in self.companies.items():
            if not all(self.matches(company, f) for f in filters):
                continue
            if query is None or not _tokens(query):
                found.append((0, 0, company_id))
                continue
            rank = self.rank(company, query)
            if rank is not None:
                found.append((rank, len(company["name"]["name"]), company_id))
        return [company_id for *_, company_id in sorted(found)]

    # --- filters ----------------------------------------------------------------------------------------

    def _ancestors(self, code: str) -> set[str]:
        found = {code}
        while self.parents.get(code):
            code = self.parents[code]
            found.add(code)
        return found

    def _latest(self, company: Mapping[str, Any], member: str) -> Any:
        indicators = sorted(company["indicators"], key=lambda entry: entry["date"])
        return indicators[-1][member] if indicators else None

    def value(self, company: Mapping[str, Any], field: str) -> Any:
        """The company's value of a filter field, in the unit its filters use (EUR for amounts)."""
        address, capital = company["address"], company["capital"]
        if field == "active":
            return "true" if company["status"] != "inactive" else "false"
        if field in ("register_type", "register_number", "register_court"):
            return company["register"][field]
        if field == "city":
            return address.get("city")
        if field == "zip":
            return address.get("postal_code")
        if field == "address":
            return address.get("formatted_value")
        if field == "purpose":
            return company["purpose"]["purpose"] if company["purpose"] else None
        if field == "capital_amount":
            if not capital or capital["currency"] == "USD":
                return None
            amount = Decimal(str(capital["amount"]))
            return amount if capital["currency"] == "EUR" else amount / Decimal("1.95583")
        if field == "capital_currency":
            return capital["currency"] if capital else None
        if field in ("balance_sheet_total", "revenue", "equity", "net_income", "cash", "liabilities"):
            cents = self._latest(company, field)
            return None if cents is None else Decimal(cents) / 100
        if field == "employees":
            count = self._latest(company, "employees")
            return None if count is None else Decimal(count)
        if field == "had_insolvency":
            return "true" if company.get("insolvencies") else "false"
        if field == "has_open_insolvency":
            return "true" if company["id"] in self.open else "false"
        if field == "has_lei":
            return "true" if company.get("lei") else "false"
        if field == "industry_codes":
            return {a for entry in company["industry_codes"]["WZ2025"] for a in self._ancestors(entry["code"])}
        return company[field]

    def matches(self, company: Mapping[str, Any], item: Mapping[str, Any]) -> bool:
        """Whether ``company`` passes one filter object."""
        field = item["field"]
        value = self.value(company, field)
        if value is None:
            return False
        if field == "industry_codes":
            wanted = [item["value"]] if "value" in item else item["values"]
            return bool(value & set(wanted))
        if "min" in item or "max" in item:
            if field == "incorporated_at":
                return item.get("min", "0000-00-00") <= value <= item.get("max", "9999-99-99")
            low, high = item.get("min"), item.get("max")
            return (low is None or value >= Decimal(low)) and (high is None or value <= Decimal(high))
        if "keywords" in item:
            return all(fold(k) in fold(value) for k in item["keywords"])
        wanted = [item["value"]] if "value" in item else item["values"]
        if field == "register_court":
            strip = lambda text: fold(text).removeprefix("amtsgericht ")  # noqa: E731
            return strip(value) in {strip(w) for w in wanted}
        if field == "register_number":
            return " ".join(value.split()).upper() in {" ".join(w.split()).upper() for w in wanted}
        if field in ("city", "address"):
            return fold(value) in {fold(w) for w in wanted}
        return value in wanted
