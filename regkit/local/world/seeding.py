"""One random generator per stage of the world generator, derived from ``(seed, stage)``.

Every stage draws from its own :class:`random.Random` (as networkx generators take ``seed=``), so a change
to one stage — drawing one number more or less — leaves what the other stages draw as it was: only the
stage itself and what is built from its decisions change. The derivation is :func:`stage_rng`.
"""

from __future__ import annotations

import random

__all__ = ["STAGES", "stage_rng"]

#: The stages of a build, in the order they run, and what each decides.
STAGES: dict[str, str] = {
    "groups": "groups: sizes, names, legal forms, parents and shares, general partners",
    "companies": "each company as founded: legal form, incorporation date, register court, WZ class, size",
    "group-links": "profit-transfer agreements, mergers and spin-offs inside groups",
    "conversions": "UG → GmbH, GmbH → AG and registered GbR → OHG, with their dates",
    "mergers": "small firms absorbed by another firm outside any group",
    "fates": "voluntary liquidation, deletion, or a planned insolvency",
    "insolvency": "the events of each company's proceeding, and the deletion after it",
    "registers": "register transfers to the concentrated courts and moves to another court's district",
    "numbers": "register numbers",
    "names": "company names and their histories",
    "addresses": "addresses and their histories",
    "capitals": "share capital and its history (DEM, conversions to EUR, increases)",
    "board": "representation, shareholders and the beneficial owners of stock corporations",
    "holdings": "share transfers to directors, partnerships' contributions (nominal shares)",
    "purposes": "registered business purposes",
    "accounts": "yearly indicators (and corrected reports)",
    "documents": "document ids and which documents exist",
    "details": "representation rule, LEI, secondary WZ codes, notarization date",
    "contact": "website, e-mail, telephone, VAT id, social media",
    "proceedings": "insolvency proceedings: case numbers, administrators, natural-person debtors, events",
    "transparency": "Transparenzregister matches (none, one or several entities)",
    "realtime": "register changes after the stored copy's date (realtime lookups only)",
    "statements": "balance sheets and P&L of each filed report, consolidated group reports (derived on demand)",
}


def stage_rng(seed: int | str, stage: str) -> random.Random:
    """The random generator of ``stage`` in a world built from ``seed``.

    It is seeded with the string ``"regkit-world/<seed>/<stage>"``. :class:`random.Random` turns a string
    seed into an integer through SHA-512 (seeding version 2), so the generator is the same in every process
    and every Python version — unlike ``hash()``, which is salted per process — and the stages' generators
    are unrelated to each other.

    >>> stage_rng(20261121, "names").random() == stage_rng(20261121, "names").random()
    True
    >>> stage_rng(20261121, "names").random() == stage_rng(20261121, "addresses").random()
    False
    """
    if stage not in STAGES:
        raise ValueError(f"unknown stage {stage!r}; the stages are {', '.join(STAGES)}")
    return random.Random(f"regkit-world/{seed}/{stage}")
