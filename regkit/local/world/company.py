"""Writing one CompanyV1 record from its plan: histories, capital, representation, accounts, documents."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta

from .financials import indicator_series
from .naming import company_stem, full_name, purpose_text, sector_word, slug
from .officers import legal_entry, natural_entry, representation, rule_for
from .people import Person, PersonPool, new_uuid, random_date
from .plan import Spec
from .reference import Place, Reference

__all__ = ["Context", "name_history", "company_record", "DEM_PER_EUR"]

DEM_PER_EUR = 1.95583
_CAPITAL_FORMS = {"gmbh", "ug", "ggmbh", "ag", "se", "kgaa"}
_STREETS = ("Hauptstraße", "Bahnhofstraße", "Industriestraße", "Gewerbestraße", "Schulstraße", "Gartenstraße",
            "Lindenstraße", "Birkenweg", "Am Markt", "Kirchstraße", "Mühlenweg", "Parkstraße", "Ringstraße",
            "Goethestraße", "Schillerstraße", "Friedrichstraße", "Dorfstraße", "Bergstraße", "Wiesenweg", "Hafenstraße")
_PHONE_RANGES = (("030", "23125"), ("069", "90009"), ("040", "66969"), ("0221", "47110"), ("089", "99998"))


@dataclass
class Context:
    """What every record builder draws from."""

    rng: random.Random
    reference: Reference
    pool: PersonPool
    as_of: date
    specs: list[Spec]
    names: dict[int, list[dict]] = field(default_factory=dict)
    directors: dict[str, list[Person]] = field(default_factory=dict)
    shareholdings: list[dict] = field(default_factory=list)


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day else None


def name_history(ctx: Context, spec: Spec) -> list[dict]:
    """Names, oldest first: the founding name, conversions, renamings, the liquidation suffix."""
    rng = ctx.rng
    place = ctx.reference.court_places[spec.registrations[0].court.code]
    city = place[0].city if place else spec.registrations[0].court.town
    owner = None
    if not spec.stem:
        surnames = [ctx.reference.last_names.draw(rng), ctx.reference.last_names.draw(rng)]
        spec.stem = company_stem(rng, surnames, city)
    if spec.legal_form == "ek":
        owner = f"{ctx.reference.first_names.draw(rng)} {ctx.reference.last_names.draw(rng)}"
    word = sector_word(rng, spec.wz[0])
    if spec.group is not None:
        word = "Holding" if spec.parent is None else ("Verwaltung" if spec.legal_form == "gmbh" and rng.random() < 0.15 else sector_word(rng, spec.wz[0]))
    first_form = spec.origin_form or spec.legal_form
    names = [{"name": full_name(spec.stem, word, first_form, owner), "legal_form": first_form, "start_date": spec.incorporated}]
    if spec.conversion_date:
        names.append({"name": full_name(spec.stem, word, spec.legal_form, owner), "legal_form": spec.legal_form,
                      "start_date": spec.conversion_date})
    end = spec.liquidation_start or spec.end or ctx.as_of
    if spec.group is None and not spec.conversion_date and (end - spec.incorporated).days > 1500 and rng.random() < 0.12:
        renamed = random_date(rng, spec.incorporated + timedelta(days=700), end - timedelta(days=100))
        new_stem = company_stem(rng, [ctx.reference.last_names.draw(rng)] * 2, city)
        names.append({"name": full_name(new_stem, sector_word(rng, spec.wz[0]), spec.legal_form, owner),
                      "legal_form": spec.legal_form, "start_date": renamed})
    if spec.liquidation_start:
        names.append({"name": names[-1]["name"] + " i.L.", "legal_form": names[-1]["legal_form"],
                      "start_date": spec.liquidation_start})
    for entry in names:
        entry["start_date"] = entry["start_date"].isoformat()
    return names


def _address(rng: random.Random, place: Place, start: date, with_street: bool = True) -> dict:
    street = f"{rng.choice(_STREETS)} {rng.randint(1, 180)}{rng.choice(('', '', '', 'a', 'b'))}" if with_street else None
    extra = f"c/o {rng.choice(('Steuerkanzlei', 'Kanzlei', 'Büroservice'))} {rng.choice(_STREETS).split('straße')[0]}" if rng.random() < 0.04 else None
    parts = [p for p in (extra, street, f"{place.postal_code} {place.city}") if p]
    address = {"street": street, "city": place.city, "postal_code": place.postal_code, "country": "Deutschland",
               "extra": extra, "start_date": start.isoformat(), "formatted_value": ", ".join(parts)}
    return {k: v for k, v in address.items() if v is not None}


def _addresses(ctx: Context, spec: Spec) -> list[dict]:
    rng = ctx.rng
    end = spec.end or ctx.as_of
    result = []
    # A transfer from a former registrar to the concentrated court is no move; a court move is.
    seats = [(spec.incorporated, next((r.court for r in spec.registrations if r.court.current), spec.registrations[0].court))]
    if spec.court_moved:
        seats.append((spec.registrations[-1].start, spec.registrations[-1].court))
    for i, (start, court) in enumerate(seats):
        places = ctx.reference.court_places[court.code]
        place = places[0] if rng.random() < 0.5 else places[rng.randrange(len(places))]
        result.append(_address(rng, place, start, with_street=not (start.year < 1990 and rng.random() < 0.3)))
        stop = seats[i + 1][0] if i + 1 < len(seats) else end
        if (stop - start).days > 1200 and rng.random() < 0.2:
            moved = random_date(rng, start + timedelta(days=400), stop - timedelta(days=200))
            result.append(_address(rng, places[rng.randrange(len(places))], moved))
    return result


def _capitals(ctx: Context, spec: Spec) -> list[dict]:
    rng = ctx.rng
    form, origin = spec.legal_form, spec.origin_form
    end = spec.end or ctx.as_of
    if spec.legal_form == "foreign" and rng.random() < 0.5:
        return [{"amount": float(rng.choice((10_000, 100_000, 1_000_000))), "currency": "USD",
                 "start_date": spec.incorporated.isoformat()}]
    if form not in _CAPITAL_FORMS:
        return []
    entries: list[tuple[float, str, date]] = []
    minimum = {"gmbh": 25_000, "ggmbh": 25_000, "ag": 50_000, "kgaa": 50_000, "se": 120_000, "ug": 1}[form]
    first_form = origin or form
    if first_form == "ug":
        entries.append((float(rng.choice((1, 100, 500, 1_000, 1_000, 2_500, 5_000))), "EUR", spec.incorporated))
    elif spec.incorporated < date(2002, 1, 1):
        dem = {"gmbh": (50_000, 50_000, 100_000, 250_000, 1_000_000), "ggmbh": (50_000,),
               "ag": (100_000, 1_000_000, 5_000_000), "kgaa": (100_000, 2_000_000)}.get(first_form, (50_000,))
        entries.append((float(rng.choice(dem)), "DEM", spec.incorporated))
    else:
        choices = {"gmbh": (25_000, 25_000, 25_000, 50_000, 100_000, 500_000), "ggmbh": (25_000, 50_000),
                   "ag": (50_000, 100_000, 500_000, 1_000_000, 5_000_000), "se": (120_000, 1_000_000, 10_000_000),
                   "kgaa": (50_000, 1_000_000)}[first_form]
        entries.append((float(rng.choice(choices)), "EUR", spec.incorporated))
    if spec.conversion_date:
        amount, currency, _ = entries[-1]
        if origin == "ug":
            entries.append((25_000.0, "EUR", spec.conversion_date))
        elif currency == "DEM" and spec.conversion_date < date(2002, 1, 1):
            entries.append((max(100_000.0, amount), "DEM", spec.conversion_date))
        else:
            euros = amount / DEM_PER_EUR if currency == "DEM" else amount
            entries.append((max(50_000.0, round(euros, 2)), "EUR", spec.conversion_date))
    amount, currency, since = entries[-1]
    earliest = max(date(2002, 1, 1), since + timedelta(days=1))
    if currency == "DEM" and earliest < min(end, date(2012, 12, 31)) and rng.random() < 0.65:
        converted = random_date(rng, earliest, min(end, date(2012, 12, 31)))
        euros = round(amount / DEM_PER_EUR, 2)
        if rng.random() < 0.5:
            euros = float(max(minimum, round(euros / 1_000) * 1_000 + 1_000))
        entries.append((euros, "EUR", converted))
    last_start = entries[-1][2]
    if form != "ug" and (end - last_start).days > 1000 and rng.random() < 0.15:
        increased = random_date(rng, last_start + timedelta(days=365), end - timedelta(days=60))
        base = entries[-1][0] if entries[-1][1] == "EUR" else entries[-1][0] / DEM_PER_EUR
        entries.append((float(round(base * rng.choice((2, 4, 10)), -3)), "EUR", increased))
    return [{"amount": a, "currency": c, "start_date": d.isoformat()} for a, c, d in entries]


def _documents(ctx: Context, spec: Spec, names: list[dict], capitals: list[dict], has_shareholder_list: bool) -> list[dict]:
    rng = ctx.rng
    if spec.registrations[0].register_type not in {"HRB", "GnR", "VR"}:
        return []
    dates = sorted({spec.incorporated.isoformat(), *[n["start_date"] for n in names[1:]], *[c["start_date"] for c in capitals[1:]]})
    docs = [{"id": new_uuid(rng), "type": "articles_of_association", "date": d, "latest": False} for d in dates]
    if has_shareholder_list:
        lists = sorted({spec.incorporated.isoformat(), *dates[1:]})
        docs += [{"id": new_uuid(rng), "type": "shareholder_list", "date": d, "latest": False} for d in lists]
    if (spec.origin_form or spec.legal_form) == "ug" or (spec.legal_form == "gmbh" and rng.random() < 0.1):
        docs.append({"id": new_uuid(rng), "type": "sample_protocol", "date": spec.incorporated.isoformat(), "latest": False})
    for kind in {d["type"] for d in docs}:
        newest = max((d for d in docs if d["type"] == kind), key=lambda d: d["date"])
        newest["latest"] = True
    return sorted(docs, key=lambda d: (d["type"], d["date"]))


def _contact(rng: random.Random, name: str) -> dict | None:
    if rng.random() > 0.55:
        return None
    domain = slug(name.rsplit(" ", 1)[0]) + ".example"
    area, block = rng.choice(_PHONE_RANGES)
    contact: dict = {"website_url": f"https://www.{domain}", "social_media": {}}
    if rng.random() < 0.8:
        contact["email"] = f"info@{domain}"
    if rng.random() < 0.7:
        contact["phone"] = f"+49 {area[1:]} {block}{rng.randint(0, 999):03d}"
    if rng.random() < 0.5:
        contact["vat_id"] = f"DE999{rng.randint(0, 999_999):06d}"
    for network in ("linkedin", "xing", "instagram"):
        if rng.random() < 0.2:
            contact["social_media"][network] = f"https://www.{network}.com/company/{slug(name)}"
    return contact
