"""Planning rules for groups, profit-transfer agreements, mergers, spin-offs, conversions and fates."""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Callable

from .people import random_date
from .plan import Link, Spec
from .reference import Reference

__all__ = ["plan_groups", "plan_conversions", "plan_standalone_mergers", "plan_fates"]

_GROUP_WORDS = ("Holding", "Beteiligungen", "Verwaltung", "Service", "Logistik", "Immobilien", "Technik",
                "Vertrieb", "Produktion", "Digital", "Energie", "Bau", "Handel", "Personal", "Finanz")
_STEMS = ("Nordstern", "Hanseatic", "Alpenblick", "Rheintal", "Elbwerk", "Mainfeld", "Isarlicht", "Weserbogen",
          "Moselhof", "Lindenkraft", "Falkenstein", "Eichenhof", "Sternquelle", "Sonnenfeld", "Bergkraft",
          "Talbrücke", "Waldstein", "Seeblick", "Kronwerk", "Terrasol", "Aquavit", "Novalux", "Optiform",
          "Medicon", "Datalog", "Grünfeld", "Blauwerk", "Tannenhof", "Inntal", "Saalewerk")


def _group_size(rng: random.Random) -> int:
    low, high = rng.choices([(3, 5), (6, 10), (11, 20), (21, 30)], [50, 30, 15, 5])[0]
    return rng.randint(low, high)


def _group_stem(rng: random.Random, used: set[str]) -> str:
    from .naming import _PREFIXES, _SUFFIXES

    parts = 2
    for attempt in range(10_000):
        stem = _PREFIXES[rng.randrange(len(_PREFIXES))] + "".join(
            _SUFFIXES[rng.randrange(len(_SUFFIXES))] for _ in range(parts - 1))
        if stem not in used:
            return stem
        if attempt % 40 == 39:  # two-part stems run out in large worlds: use longer ones
            parts += 1
    raise RuntimeError("no unused group name left")


def plan_groups(rng: random.Random, reference: Reference, size: int, as_of: date, specs: list[Spec],
                new_spec: Callable[..., Spec]) -> list[dict]:
    """Groups of 3–30 companies: an Organträger, sub-holdings, agreements, mergers, spin-offs."""
    groups: list[dict] = []
    budget = size // 6
    number = 0
    used_stems: set[str] = set(_STEMS)
    while budget >= 3:
        number += 1
        members = min(budget, max(3, _group_size(rng)))
        budget -= members
        stem = _STEMS[number - 1] if number <= len(_STEMS) else _group_stem(rng, used_stems)
        used_stems.add(stem)
        group_id = f"G{number:03d}"
        top_form = rng.choices(["ag", "gmbh", "se", "kgaa"], [40, 45, 10, 5])[0]
        top = new_spec(rng, reference, len(specs), top_form, as_of, stem=stem)
        top.incorporated = min(top.incorporated, date(2005, 1, 1))
        top.registrations[0].start = top.incorporated
        top.group, top.size = group_id, "large"
        specs.append(top)
        indices = [top.index]
        holdings = [top.index]
        for position in range(members - 1):
            form = "kg" if rng.random() < 0.12 else "gmbh"
            member = new_spec(rng, reference, len(specs), form, as_of, stem=stem)
            member.group = group_id
            member.registrations[0].court = specs[top.index].registrations[0].court if rng.random() < 0.6 else member.registrations[0].court
            member.incorporated = max(member.incorporated, top.incorporated + timedelta(days=30))
            member.registrations[0].start = member.incorporated
            parent = holdings[0] if len(holdings) == 1 or rng.random() < 0.6 else holdings[rng.randrange(len(holdings))]
            member.parent = parent
            member.parent_share = 1.0 if rng.random() < 0.8 else round(rng.uniform(0.51, 0.95), 2)
            member.shared_directors = []
            specs.append(member)
            indices.append(member.index)
            if form == "gmbh" and position < 6 and rng.random() < 0.3:
                holdings.append(member.index)
        _plan_group_links(rng, specs, indices, as_of)
        groups.append({"id": group_id, "name": stem, "organtraeger": specs[top.index].index, "members": indices})
    return groups


def _plan_group_links(rng: random.Random, specs: list[Spec], indices: list[int], as_of: date) -> None:
    top = specs[indices[0]]
    for index in indices[1:]:
        member = specs[index]
        parent = specs[member.parent]  # type: ignore[index]
        if member.legal_form == "kg":
            partners = [i for i in indices if specs[i].legal_form == "gmbh" and i != index]
            member.general_partner = partners[0] if partners else None
            if member.general_partner is None:
                member.legal_form = "gmbh"
                member.registrations[0].register_type = "HRB"
        earliest = max(member.incorporated, parent.incorporated) + timedelta(days=60)
        if member.legal_form != "kg" and member.parent_share == 1.0 and earliest < as_of - timedelta(days=90) and rng.random() < 0.75:
            registered = random_date(rng, earliest, as_of - timedelta(days=90))
            agreed = registered - timedelta(days=rng.randint(20, 120)) if rng.random() < 0.85 else None
            member.profit_transfer = Link(parent.index, registered, agreed)
    absorbable = [i for i in indices[1:] if specs[i].profit_transfer is None and specs[i].legal_form == "gmbh"
                  and not any(specs[j].parent == i or specs[j].general_partner == i for j in indices)]
    if len(absorbable) >= 2 and rng.random() < 0.45:
        count = min(len(absorbable), rng.randint(1, 3))
        registered = random_date(rng, date(2012, 1, 1), as_of - timedelta(days=120))
        agreed = registered - timedelta(days=rng.randint(30, 150))
        for index in absorbable[:count]:
            absorbed = specs[index]
            absorbed.incorporated = min(absorbed.incorporated, registered - timedelta(days=400))
            absorbed.registrations[0].start = absorbed.incorporated
            own_agreement = agreed if rng.random() < 0.85 else None
            absorbed.merged_into = Link(top.index, registered, own_agreement)
            absorbed.terminated, absorbed.status = registered, "inactive"
            top.acquisitions.append(Link(index, registered, own_agreement))
    receivers = [i for i in indices[1:] if specs[i].merged_into is None and specs[i].legal_form == "gmbh"
                 and specs[i].incorporated > top.incorporated + timedelta(days=400)]
    if receivers and rng.random() < 0.3:
        receiver = specs[receivers[-1]]
        transferor = top if rng.random() < 0.5 or receiver.parent is None else specs[receiver.parent]
        registered = receiver.incorporated
        transferor.spin_offs.append(Link(receiver.index, registered, registered - timedelta(days=rng.randint(10, 60))))


def plan_conversions(rng: random.Random, specs: list[Spec], as_of: date) -> None:
    """UG → GmbH after raising the capital, GmbH → AG, and a few registered GbR that became an OHG."""
    for spec in specs:
        if spec.group is not None or spec.merged_into is not None:
            continue
        roll = rng.random()
        if spec.legal_form == "gmbh" and spec.incorporated >= date(2009, 1, 1) and roll < 0.12:
            conversion = random_date(rng, spec.incorporated + timedelta(days=365), as_of - timedelta(days=30))
            if spec.incorporated < conversion < as_of:
                spec.origin_form, spec.conversion_date = "ug", conversion
        elif spec.legal_form == "ag" and roll < 0.3:
            conversion = random_date(rng, spec.incorporated + timedelta(days=365), as_of - timedelta(days=30))
            if spec.incorporated < conversion < as_of:
                spec.origin_form, spec.conversion_date = "gmbh", conversion
        elif spec.legal_form == "ohg" and roll < 0.25:
            spec.incorporated = random_date(rng, date(2024, 1, 2), date(2024, 12, 31))
            spec.registrations[0].start = spec.incorporated
            spec.origin_form = "gbr"
            spec.conversion_date = random_date(rng, spec.incorporated + timedelta(days=120), as_of - timedelta(days=30))


def plan_standalone_mergers(rng: random.Random, specs: list[Spec], as_of: date) -> None:
    """Small firms absorbed by another firm outside any group."""
    candidates = [s for s in specs if s.group is None and s.legal_form in {"gmbh", "ug"}]
    rng.shuffle(candidates)
    for absorbed, acquirer in zip(candidates[0:len(specs) // 60], candidates[len(specs) // 60: len(specs) // 30]):
        start = max(absorbed.incorporated, acquirer.incorporated) + timedelta(days=365)
        if start >= as_of - timedelta(days=60) or absorbed.origin_form or acquirer.origin_form:
            continue
        registered = random_date(rng, start, as_of - timedelta(days=60))
        agreed = registered - timedelta(days=rng.randint(20, 120)) if rng.random() < 0.8 else None
        absorbed.merged_into = Link(acquirer.index, registered, agreed)
        absorbed.terminated, absorbed.status = registered, "inactive"
        acquirer.acquisitions.append(Link(absorbed.index, registered, agreed))


_INSOLVENCY_STATUS = {
    "preliminary": 8, "opened": 30, "rejected_no_assets": 17, "mass_insufficient": 6, "plan_supervised": 3,
    "lifted": 22, "discontinued": 9, "unknown": 2,
}


def plan_fates(rng: random.Random, specs: list[Spec], as_of: date) -> None:
    """How each company still standing ends: voluntary liquidation, deletion, or insolvency (with dates)."""
    statuses = list(_INSOLVENCY_STATUS)
    weights = list(_INSOLVENCY_STATUS.values())
    for spec in specs:
        if spec.group is not None or spec.merged_into is not None or spec.acquisitions:
            continue
        age_days = (as_of - spec.incorporated).days
        roll = rng.random()
        eligible = spec.legal_form not in {"ev", "eg", "municipal", "llp", "ewiv"}
        if eligible and roll < 0.3 and age_days > 900:
            spec.insolvency = rng.choices(statuses, weights)[0]
            earliest = spec.incorporated + timedelta(days=730)
            window = {"preliminary": 80, "opened": 1000}.get(spec.insolvency, 3650)
            spec.insolvency_filed = random_date(rng, max(earliest, as_of - timedelta(days=window)), as_of - timedelta(days=20))
        elif roll < 0.35 and age_days > 1200:
            spec.liquidation_start = random_date(rng, spec.incorporated + timedelta(days=900), as_of - timedelta(days=30))
            if (as_of - spec.liquidation_start).days > 500 and rng.random() < 0.6:
                spec.terminated = spec.liquidation_start + timedelta(days=rng.randint(370, 480))
                spec.status = "inactive"
            else:
                spec.status = "liquidation"
        elif roll < 0.39 and age_days > 1200:
            spec.terminated = random_date(rng, spec.incorporated + timedelta(days=900), as_of - timedelta(days=30))
            spec.status = "inactive"
        stops = [d for d in (spec.end, spec.liquidation_start) if d]
        if spec.conversion_date and stops and spec.conversion_date >= min(stops):
            spec.origin_form = spec.conversion_date = None
