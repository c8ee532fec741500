"""Histories of one company's record: names (``names`` stage), addresses (``addresses``), capital (``capitals``).

Each builder draws from its own stage's generator in :attr:`Context.rngs`, so that what one of them draws
leaves the others as they were.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta

from regkit.schema.interface import DEM_PER_EUR

from .names import written
from .naming import company_stem, full_name, sector_word
from .people import Person, PersonPool, random_date
from .reference import Place, Reference
from .specs import Spec

__all__ = ["Context", "addresses_of", "capitals_of", "name_history", "new_address"]

_CAPITAL_FORMS = {"gmbh", "ug", "ggmbh", "ag", "se", "kgaa"}
_MINIMUM_EUR = {"gmbh": 25_000, "ggmbh": 25_000, "ag": 50_000, "kgaa": 50_000, "se": 120_000, "ug": 1}
_STREETS = (
    "Hauptstraße",
    "Bahnhofstraße",
    "Industriestraße",
    "Gewerbestraße",
    "Schulstraße",
    "Gartenstraße",
    "Lindenstraße",
    "Birkenweg",
    "Am Markt",
    "Kirchstraße",
    "Mühlenweg",
    "Parkstraße",
    "Ringstraße",
    "Goethestraße",
    "Schillerstraße",
    "Friedrichstraße",
    "Dorfstraße",
    "Bergstraße",
    "Wiesenweg",
    "Hafenstraße",
)


@dataclass
class Context:
    """What every record builder draws from: the stages' generators, the reference lists and the plan.

    ``pool`` hands out officers, owners and shareholders (it draws from the ``board`` generator);
    ``current_names`` (every company's current name, by index: links and representatives show it) is filled
    by the ``names`` stage before any record is written; the ``board`` stage fills ``directors`` (an
    Organträger's directors, by group) and ``shareholdings`` (the rows of the company it builds).
    """

    rngs: Mapping[str, random.Random]
    reference: Reference
    pool: PersonPool
    as_of: date
    specs: list[Spec]
    current_names: list[str] = field(default_factory=list)
    directors: dict[str, list[Person]] = field(default_factory=dict)
    shareholdings: list[dict] = field(default_factory=list)


def name_history(ctx: Context, spec: Spec, rng: random.Random | None = None) -> list[dict]:
    """The ``names`` stage for one company: the founding name, conversions, a renaming, the liquidation suffix.

    ``rng`` is the ``names`` generator (default ``ctx.rngs["names"]``); a copy of it taken before the stage
    draws the same histories again.
    """
    rng, reference = rng if rng is not None else ctx.rngs["names"], ctx.reference
    place = reference.court_places[spec.registrations[0].court.code]
    city = place[0].city if place else spec.registrations[0].court.town
    stem = spec.stem or company_stem(rng, [written(reference.last_names.draw(rng)) for _ in range(2)], city)
    owner = None
    if spec.legal_form == "ek":
        owner = written(reference.first_names.draw(rng), reference.last_names.draw(rng))
    if spec.group is None:
        word = sector_word(rng, spec.wz[0])
    elif spec.parent is None:
        word = "Holding"
    else:
        word = "Verwaltung" if spec.legal_form == "gmbh" and rng.random() < 0.15 else sector_word(rng, spec.wz[0])
    first_form = spec.origin_form or spec.legal_form
    names = [(full_name(stem, word, first_form, owner), first_form, spec.incorporated)]
    if spec.conversion_date:
        names.append((full_name(stem, word, spec.legal_form, owner), spec.legal_form, spec.conversion_date))
    end = spec.liquidation_start or spec.end or ctx.as_of
    if (
        spec.group is None
        and not spec.conversion_date
        and (end - spec.incorporated).days > 1500
        and rng.random() < 0.12
    ):
        renamed = random_date(rng, spec.incorporated + timedelta(days=700), end - timedelta(days=100))
        new_stem = company_stem(rng, [written(reference.last_names.draw(rng))] * 2, city)
        names.append(
            (full_name(new_stem, sector_word(rng, spec.wz[0]), spec.legal_form, owner), spec.legal_form, renamed)
        )
    if spec.liquidation_start:
        names.append((names[-1][0] + " i.L.", names[-1][1], spec.liquidation_start))
    return [{"name": name, "legal_form": form, "start_date": start.isoformat()} for name, form, start in names]


def new_address(rng: random.Random, place: Place, start: date, with_street: bool = True) -> dict:
    street = (
        f"{rng.choice(_STREETS)} {rng.randint(1, 180)}{rng.choice(('', '', '', 'a', 'b'))}" if with_street else None
    )
    extra = (
        f"c/o {rng.choice(('Steuerkanzlei', 'Kanzlei', 'Büroservice'))} {rng.choice(_STREETS).split('straße')[0]}"
        if rng.random() < 0.04
        else None
    )
    parts = [p for p in (extra, street, f"{place.postal_code} {place.city}") if p]
    address = {
        "street": street,
        "city": place.city,
        "postal_code": place.postal_code,
        "country": "Deutschland",
        "extra": extra,
        "start_date": start.isoformat(),
        "formatted_value": ", ".join(parts),
    }
    return {k: v for k, v in address.items() if v is not None}


def addresses_of(ctx: Context, spec: Spec) -> list[dict]:
    """The ``addresses`` stage for one company: an address in its court's district, a move within it now
    and then, and a new address with a move to another court's district (not with a register transfer)."""
    rng = ctx.rngs["addresses"]
    end = spec.end or ctx.as_of
    result = []
    seats = [
        (spec.incorporated, next((r.court for r in spec.registrations if r.court.current), spec.registrations[0].court))
    ]
    if spec.court_moved:
        seats.append((spec.registrations[-1].start, spec.registrations[-1].court))
    for i, (start, court) in enumerate(seats):
        places = ctx.reference.court_places[court.code]
        place = places[0] if rng.random() < 0.5 else places[rng.randrange(len(places))]
        result.append(new_address(rng, place, start, with_street=not (start.year < 1990 and rng.random() < 0.3)))
        stop = seats[i + 1][0] if i + 1 < len(seats) else end
        if (stop - start).days > 1200 and rng.random() < 0.2:
            moved = random_date(rng, start + timedelta(days=400), stop - timedelta(days=200))
            result.append(new_address(rng, places[rng.randrange(len(places))], moved))
    return result


def _founding_capital(rng: random.Random, spec: Spec) -> tuple[float, str, date]:
    """The capital at incorporation: a UG's few euros, DEM before 2002, EUR since."""
    first_form = spec.origin_form or spec.legal_form
    if first_form == "ug":
        return float(rng.choice((1, 100, 500, 1_000, 1_000, 2_500, 5_000))), "EUR", spec.incorporated
    if spec.incorporated < date(2002, 1, 1):
        dem = {
            "gmbh": (50_000, 50_000, 100_000, 250_000, 1_000_000),
            "ggmbh": (50_000,),
            "ag": (100_000, 1_000_000, 5_000_000),
            "kgaa": (100_000, 2_000_000),
        }.get(first_form, (50_000,))
        return float(rng.choice(dem)), "DEM", spec.incorporated
    choices = {
        "gmbh": (25_000, 25_000, 25_000, 50_000, 100_000, 500_000),
        "ggmbh": (25_000, 50_000),
        "ag": (50_000, 100_000, 500_000, 1_000_000, 5_000_000),
        "se": (120_000, 1_000_000, 10_000_000),
        "kgaa": (50_000, 1_000_000),
    }[first_form]
    return float(rng.choice(choices)), "EUR", spec.incorporated


def _at_conversion(spec: Spec, amount: float, currency: str) -> tuple[float, str, date]:
    """The capital after a change of legal form: 25,000 EUR for a former UG, the AG's minimum otherwise."""
    day: date = spec.conversion_date  # type: ignore[assignment]
    if spec.origin_form == "ug":
        return 25_000.0, "EUR", day
    if currency == "DEM" and day < date(2002, 1, 1):
        return max(100_000.0, amount), "DEM", day
    euros = amount / float(DEM_PER_EUR) if currency == "DEM" else amount
    return max(50_000.0, round(euros, 2)), "EUR", day


def capitals_of(ctx: Context, spec: Spec) -> list[dict]:
    """The ``capitals`` stage for one company: founding capital, conversion, DEM → EUR, an increase."""
    rng = ctx.rngs["capitals"]
    end = spec.end or ctx.as_of
    if spec.legal_form == "foreign" and rng.random() < 0.5:
        return [
            {
                "amount": float(rng.choice((10_000, 100_000, 1_000_000))),
                "currency": "USD",
                "start_date": spec.incorporated.isoformat(),
            }
        ]
    if spec.legal_form not in _CAPITAL_FORMS:
        return []
    entries = [_founding_capital(rng, spec)]
    if spec.conversion_date:
        entries.append(_at_conversion(spec, entries[-1][0], entries[-1][1]))
    amount, currency, since = entries[-1]
    earliest = max(date(2002, 1, 1), since + timedelta(days=1))
    if currency == "DEM" and earliest < min(end, date(2012, 12, 31)) and rng.random() < 0.65:
        converted = random_date(rng, earliest, min(end, date(2012, 12, 31)))
        euros = round(amount / float(DEM_PER_EUR), 2)
        if rng.random() < 0.5:  # rounded up to full thousands in the same entry
            euros = float(max(_MINIMUM_EUR[spec.legal_form], round(euros / 1_000) * 1_000 + 1_000))
        entries.append((euros, "EUR", converted))
    last_start = entries[-1][2]
    if spec.legal_form != "ug" and (end - last_start).days > 1000 and rng.random() < 0.15:
        increased = random_date(rng, last_start + timedelta(days=365), end - timedelta(days=60))
        base = entries[-1][0] if entries[-1][1] == "EUR" else entries[-1][0] / float(DEM_PER_EUR)
        entries.append((float(round(base * rng.choice((2, 4, 10)), -3)), "EUR", increased))
    return [{"amount": a, "currency": c, "start_date": d.isoformat()} for a, c, d in entries]
