"""The ``conversions``, ``mergers`` and ``fates`` stages: how companies outside groups change form and end.

Each stage returns its decisions by company index; :func:`regkit.local.world.specs.settle` combines them.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from datetime import date, timedelta

from .people import random_date
from .specs import Fate, Founding, Links

__all__ = ["GBR_REGISTER_OPENED", "INSOLVENCY_WEIGHTS", "plan_conversions", "plan_standalone_mergers", "plan_fates"]

#: The planned final status of a company's proceeding, by relative frequency.
INSOLVENCY_WEIGHTS = {
    "preliminary": 8,
    "opened": 30,
    "rejected_no_assets": 17,
    "mass_insufficient": 6,
    "plan_supervised": 3,
    "lifted": 22,
    "discontinued": 9,
    "unknown": 2,
}
#: The register opened to GbRs on 2024-01-01 (MoPeG): an OHG incorporated since was a registered GbR first.
GBR_REGISTER_OPENED = date(2024, 1, 1)
_NO_INSOLVENCY = {"ev", "eg", "municipal", "llp", "ewiv"}


def plan_conversions(rng: random.Random, founded: Sequence[Founding], as_of: date) -> dict[int, tuple[str, date]]:
    """The ``conversions`` stage: ``{index: (form it was founded in, date it changed)}``.

    UG → GmbH after raising the capital (12 % of GmbHs founded since 2009), GmbH → AG (30 % of AGs), and
    every OHG incorporated since the register opened to GbRs (a registered GbR that became an OHG). Group
    companies keep their form.
    """
    conversions: dict[int, tuple[str, date]] = {}
    for company in founded:
        if company.group is not None:
            continue
        roll = rng.random()
        incorporated = company.incorporated
        if company.legal_form == "gmbh" and incorporated >= date(2009, 1, 1) and roll < 0.12:
            origin, earliest = "ug", incorporated + timedelta(days=365)
        elif company.legal_form == "ag" and roll < 0.3:
            origin, earliest = "gmbh", incorporated + timedelta(days=365)
        elif company.legal_form == "ohg" and incorporated >= GBR_REGISTER_OPENED:
            origin, earliest = "gbr", incorporated + timedelta(days=120)
        else:
            continue
        latest = as_of - timedelta(days=30)
        if earliest < latest:
            conversions[company.index] = (origin, random_date(rng, earliest, latest))
    return conversions


def plan_standalone_mergers(
    rng: random.Random, founded: Sequence[Founding], converted: Collection[int], as_of: date
) -> Links:
    """The ``mergers`` stage: small firms (GmbH, UG) outside groups absorbed by another such firm.

    Companies that change their form (``converted``) take no part.
    """
    links = Links()
    candidates = [c for c in founded if c.group is None and c.legal_form in {"gmbh", "ug"}]
    rng.shuffle(candidates)
    share = len(founded) // 60
    for absorbed, acquirer in zip(candidates[0:share], candidates[share : 2 * share]):
        start = max(absorbed.incorporated, acquirer.incorporated) + timedelta(days=365)
        if start >= as_of - timedelta(days=60) or absorbed.index in converted or acquirer.index in converted:
            continue
        registered = random_date(rng, start, as_of - timedelta(days=60))
        agreed = registered - timedelta(days=rng.randint(20, 120)) if rng.random() < 0.8 else None
        links.merge(absorbed.index, acquirer.index, registered, agreed)
    return links


def plan_fates(rng: random.Random, founded: Sequence[Founding], links: Links, as_of: date) -> dict[int, Fate]:
    """The ``fates`` stage: how each company outside groups and mergers ends, if it does.

    Of companies old enough: 30 % file for insolvency (not associations, cooperatives, municipal firms, LLPs,
    EWIVs), 5 % go into voluntary liquidation (most are deleted a year later), 4 % are deleted.
    """
    statuses, weights = list(INSOLVENCY_WEIGHTS), list(INSOLVENCY_WEIGHTS.values())
    fates: dict[int, Fate] = {}
    for company in founded:
        index = company.index
        if company.group is not None or index in links.merged_into or index in links.acquisitions:
            continue
        age_days = (as_of - company.incorporated).days
        roll = rng.random()
        if company.legal_form not in _NO_INSOLVENCY and roll < 0.3 and age_days > 900:
            fates[index] = Fate(insolvency=rng.choices(statuses, weights)[0])
        elif roll < 0.35 and age_days > 1200:
            fates[index] = _liquidation(rng, company.incorporated, as_of)
        elif roll < 0.39 and age_days > 1200:
            fates[index] = Fate(
                deleted=random_date(rng, company.incorporated + timedelta(days=900), as_of - timedelta(days=30))
            )
    return fates


def _liquidation(rng: random.Random, incorporated: date, as_of: date) -> Fate:
    """A liquidator is appointed; after more than 500 days the company is usually (60 %) deleted."""
    start = random_date(rng, incorporated + timedelta(days=900), as_of - timedelta(days=30))
    if (as_of - start).days > 500 and rng.random() < 0.6:
        return Fate(liquidation_start=start, deleted=start + timedelta(days=rng.randint(370, 480)))
    return Fate(liquidation_start=start)
