"""The real reference lists the bundled world is calibrated from (``data/reference/``).

Every list is read once per build; see ``data/NOTICE.md`` for provenance and licences.
"""

from __future__ import annotations

import bisect
import csv
import itertools
import os
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from regkit.schema.courts import official_name

from .names import Name, first_names, last_names
from .store import bundled_data_dirs

__all__ = ["Court", "Place", "Reference", "Weighted", "load_reference", "STATE_NAMES_DE"]

T = TypeVar("T")

#: The federal states as ``register_courts_observed.csv`` (English) and ``postcodes.csv`` (German) spell them.
STATE_NAMES_DE = {
    "Baden-Württemberg": "Baden-Württemberg",
    "Bavaria": "Bayern",
    "Berlin": "Berlin",
    "Brandenburg": "Brandenburg",
    "Bremen": "Bremen",
    "Hamburg": "Hamburg",
    "Hesse": "Hessen",
    "Lower Saxony": "Niedersachsen",
    "Mecklenburg-Western Pomerania": "Mecklenburg-Vorpommern",
    "North Rhine-Westphalia": "Nordrhein-Westfalen",
    "Rhineland-Palatinate": "Rheinland-Pfalz",
    "Saarland": "Saarland",
    "Saxony": "Sachsen",
    "Saxony-Anhalt": "Sachsen-Anhalt",
    "Schleswig-Holstein": "Schleswig-Holstein",
    "Thuringia": "Thüringen",
}


class Weighted(Generic[T]):
    """Draw items with probability proportional to their weights (cumulative table + bisect)."""

    def __init__(self, items: Sequence[T], weights: Sequence[float]):
        if not items:
            raise ValueError("a weighted choice needs at least one item")
        self.items = list(items)
        self.cumulative = list(itertools.accumulate(float(w) for w in weights))

    def draw(self, rng: random.Random) -> T:
        """Return one item."""
        x = rng.random() * self.cumulative[-1]
        return self.items[bisect.bisect_right(self.cumulative, x)]

    def __len__(self) -> int:
        return len(self.items)


@dataclass(frozen=True)
class Court:
    """A register court: the code used in company ids, its names and where it is."""

    code: str  # five characters, e.g. "F1103"
    town: str  # the register's own short name, e.g. "Berlin (Charlottenburg)"
    name: str  # official name, e.g. "Amtsgericht Charlottenburg"
    state: str  # German name of the federal state
    current: bool
    weight: int


@dataclass(frozen=True)
class Place:
    """A postcode/municipality pair that exists."""

    postal_code: str
    city: str
    district: str
    state: str


@dataclass
class Reference:
    """Everything the generator draws from."""

    courts: list[Court]
    current_courts: Weighted[Court]
    former_courts_by_state: dict[str, list[Court]]
    places_by_state: dict[str, list[Place]]
    places_by_city: dict[str, list[Place]]
    places_by_district: dict[str, list[Place]]
    wz_subclasses: list[tuple[str, str]]  # (code, title)
    wz_codes: set[str]
    first_names: Weighted[Name]  # as the register writes them: titles apart (``Dr.``), debris removed
    last_names: Weighted[Name]
    officer_cities: Weighted[str]
    authority: dict[str, Weighted[str]]
    gds_codes: set[str]
    court_places: dict[str, list[Place]] = field(default_factory=dict)


#: WZ divisions no registered firm has as its main activity (public administration, households, extraterritorial).
_NOT_FOR_FIRMS = {"84", "97", "98", "99"}


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _weighted(path: Path, minimum: int = 1) -> Weighted[str]:
    rows = [r for r in _rows(path) if int(r["count"]) >= minimum]
    return Weighted([r["value"] for r in rows], [int(r["count"]) for r in rows])


def _name_lists(directory: Path) -> tuple[Weighted[Name], Weighted[Name]]:
    """The officers' first and last names, each value read as a name (:mod:`.names`), at the lists' counts."""
    first, last, towns = (
        [(r["value"], int(r["count"])) for r in _rows(directory / f"officer_{name}.csv")]
        for name in ("first_names", "last_names", "cities")
    )
    return (
        Weighted(first_names(first, dict(towns), dict(last)), [count for _, count in first]),
        Weighted(last_names(last, dict(first)), [count for _, count in last]),
    )


def _authority_classes(path: Path) -> dict[str, Weighted[str]]:
    classes: dict[str, tuple[list[str], list[int]]] = {}
    for row in _rows(path):
        text, count = row["value"], int(row["count"])
        if "rokura" in text:
            kind = "prokura"
        elif "Liquidator" in text:
            kind = "liquidator"
        elif "persönlich haftenden" in text:
            kind = "partner"
        elif text in {"Kaufmann", "Kauffrau", "Einzelkaufmann"}:
            kind = "owner"
        elif re.match(r"^(Rechtsanwalt|Diplom|Dipl|Dr\.|Steuerberater|Ingenieur)", text) or "Amts wegen" in text:
            kind = "other"
        else:
            kind = "director"
        items, weights = classes.setdefault(kind, ([], []))
        items.append(text)
        weights.append(count)
    return {kind: Weighted(items, weights) for kind, (items, weights) in classes.items()}


def _courts(directory: Path) -> list[Court]:
    """The register courts (current and former), their official names and weights, by code."""
    gds = {r["code"]: r["name"] for r in _rows(directory / "gds_gerichte.csv")}
    xunternehmen = {r["code"]: r["name"] for r in _rows(directory / "registergerichte_xunternehmen_v12.csv")}
    seats: dict[str, tuple[str, str]] = {}  # code → (town, state) as first observed
    weights: dict[str, int] = {}
    current: dict[str, bool] = {}
    for row in _rows(directory / "register_courts_observed.csv"):
        code = row["code"][:5]
        seats.setdefault(code, (row["name"], row["federal_state"]))
        weights[code] = weights.get(code, 0) + int(row["records_in_sample"])
        current[code] = current.get(code, False) or row["role"] == "current_registrar"
    return [
        Court(
            code=code,
            town=town,
            name=official_name(code, town, xunternehmen, gds),
            state=STATE_NAMES_DE.get(state, state),
            current=current[code],
            weight=weights[code],
        )
        for code, (town, state) in sorted(seats.items())
        if state in STATE_NAMES_DE
    ]


def _places(directory: Path) -> tuple[dict[str, list[Place]], dict[str, list[Place]], dict[str, list[Place]]]:
    """Postcode/town pairs by state, by town and by district (county)."""
    by_state: dict[str, list[Place]] = {}
    by_city: dict[str, list[Place]] = {}
    by_district: dict[str, list[Place]] = {}
    seen: set[tuple[str, str]] = set()
    for row in sorted(_rows(directory / "postcodes.csv"), key=lambda r: (r["plz"].zfill(5), r["ort"])):
        postal_code = row["plz"].zfill(5)  # the source dropped leading zeros (Saxony's 0xxxx codes)
        key = (postal_code, row["ort"])
        if key in seen or len(postal_code) != 5:
            continue
        seen.add(key)
        place = Place(postal_code, row["ort"], row["landkreis"] or row["ort"], row["bundesland"])
        by_state.setdefault(place.state, []).append(place)
        by_city.setdefault(place.city, []).append(place)
        by_district.setdefault(place.district, []).append(place)
    return by_state, by_city, by_district


def load_reference(directory: Path) -> Reference:
    """Read the reference lists below ``directory`` (``data/reference``)."""
    _require_reference_dir(directory)
    courts = _courts(directory)
    current = [c for c in courts if c.current]
    former: dict[str, list[Court]] = {}
    for court in courts:
        if not court.current:
            former.setdefault(court.state, []).append(court)
    places_by_state, places_by_city, places_by_district = _places(directory)
    wz_rows = _rows(directory / "wz2025.csv")
    first, last = _name_lists(directory)
    reference = Reference(
        courts=courts,
        current_courts=Weighted(current, [c.weight for c in current]),
        former_courts_by_state=former,
        places_by_state=places_by_state,
        places_by_city=places_by_city,
        places_by_district=places_by_district,
        wz_subclasses=[
            (r["code"], r["title"]) for r in wz_rows if r["level"] == "5" and r["code"][:2] not in _NOT_FOR_FIRMS
        ],
        wz_codes={r["code"] for r in wz_rows},
        first_names=first,
        last_names=last,
        officer_cities=_weighted(directory / "officer_cities.csv"),
        authority=_authority_classes(directory / "representation_authority_texts.csv"),
        gds_codes={r["code"][:5] for r in _rows(directory / "gds_gerichte.csv")},
    )
    for court in courts:
        reference.court_places[court.code] = _places_for_court(reference, court)
    return reference


def _places_for_court(reference: Reference, court: Court) -> list[Place]:
    """Postcodes plausibly inside the court's district: its town, else its county, else its state."""
    town = court.town.split(" (")[0]
    inner = court.town[court.town.find("(") + 1 : -1] if "(" in court.town else ""
    for candidate in (court.town, town, inner):
        places = reference.places_by_city.get(candidate) if candidate else None
        if not places and candidate:
            prefixed = sorted(city for city in reference.places_by_city if city.startswith(candidate + " "))
            places = reference.places_by_city[prefixed[0]] if prefixed else None
        if places:
            district = places[0].district
            return places + [p for p in reference.places_by_district.get(district, []) if p.city != places[0].city]
    return reference.places_by_state.get(court.state, [])


def _require_reference_dir(directory: Path) -> None:
    """Fail with what works when ``directory`` holds no reference lists at all."""
    if Path(directory).is_dir() and any(Path(directory).glob("*.csv")):
        return
    bundled = next((d / "reference" for d in bundled_data_dirs() if (d / "reference").is_dir()), None)
    message = f"{directory} holds no reference lists (the CSV files worlds are built from)."
    if os.environ.get("REGKIT_DATA_DIR"):
        message += " By default they are read from reference/ in the REGKIT_DATA_DIR directory."
    if bundled is not None:
        message += f" Pass `--reference {bundled}` (reference_dir= in Python): the lists bundled with regkit."
    else:
        message += " Reinstall the regkit wheel (`pip install --force-reinstall regkit-<version>-py3-none-any.whl`): it bundles them."
    raise FileNotFoundError(message)
