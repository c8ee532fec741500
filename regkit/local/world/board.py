"""The ``board`` stage: a company's representation, its shareholders, and who owns its stock corporations.

Everything here draws from the ``board`` generator, the person pool included, so officers, owners and
shareholders change only when this stage does.
"""

from __future__ import annotations

from typing import Any

from .company import Context
from .officers import legal_entry, natural_entry, representation
from .people import Person
from .specs import Spec

__all__ = ["HOLDER_FORMS", "board_of"]

#: Legal forms whose shareholders (or partners' shares) the register lists as SHAREHOLDER entries.
HOLDER_FORMS = {"gmbh", "ug", "ggmbh", "kg", "ohg"}
_BOARD_ROLES = {"DIRECTOR", "OWNER", "PARTNER"}


def board_of(ctx: Context, spec: Spec, city: str) -> list[dict]:
    """The representation entries of ``spec`` (in start order) over its life; records its shareholdings.

    A group company shares its Organträger's directors now and then (60 %); a GmbH & Co. KG has the group's
    GmbH as general partner from the day both exist.
    """
    rng = ctx.rngs["board"]
    shared = ctx.directors.get(spec.group or "", []) if spec.parent is not None and rng.random() < 0.6 else None
    general = None
    if spec.general_partner is not None:
        partner = ctx.specs[spec.general_partner]
        start = max(spec.incorporated, partner.incorporated)
        general = legal_entry(
            partner.id, ctx.current_names[partner.index], None, "PERSONAL_LIABLE_DIRECTOR", start, None
        )
    provisional = representation(
        rng,
        ctx.reference,
        ctx.pool,
        legal_form=spec.legal_form,
        city=city,
        start=spec.incorporated,
        stop=spec.end or ctx.as_of,
        terminated_at=spec.end,
        liquidation_start=spec.liquidation_start,
        general_partner=general,
        shared_directors=shared,
    )
    directors = [
        ctx.pool.by_id[e["id"]] for e in provisional if e["role"] in _BOARD_ROLES and e["id"] in ctx.pool.by_id
    ]
    shareholders = _holdings(ctx, spec, directors) if spec.legal_form in HOLDER_FORMS else []
    if spec.legal_form in {"ag", "se", "kgaa"} and spec.parent is None:
        _owners_of_corporation(ctx, spec)
    if spec.group and spec.parent is None:
        ctx.directors[spec.group] = directors
    entries = provisional + shareholders
    entries.sort(key=lambda e: (e["start_date"], e["role"], e["name"]))
    return entries


def _holders(ctx: Context, spec: Spec, directors: list[Person]) -> list[tuple[int | Person, float]]:
    """``(holder, share)``: the parent company (by index, and a minority), or founders (often its directors)."""
    rng = ctx.rngs["board"]
    if spec.parent is not None:
        holders: list[tuple[int | Person, float]] = [(spec.parent, spec.parent_share)]
        if spec.parent_share < 1:
            holders.append((ctx.pool.officer(None, spec.incorporated), round(1 - spec.parent_share, 4)))
        return holders
    count = 1 if rng.random() < 0.5 else rng.randint(2, 4)
    people = [
        directors[i] if i < len(directors) and rng.random() < 0.7 else ctx.pool.officer(None, spec.incorporated)
        for i in range(count)
    ]
    people = list(dict.fromkeys(people))
    weights = [rng.randint(1, 10) for _ in people]
    shares = [round(w / sum(weights), 4) for w in weights]
    shares[-1] = round(1 - sum(shares[:-1]), 4)
    return [(p, round(s, 4)) for p, s in zip(people, shares)]


def _holdings(ctx: Context, spec: Spec, directors: list[Person]) -> list[dict]:
    """SHAREHOLDER entries and ``shareholdings.jsonl`` rows of ``spec``."""
    entries = []
    for holder, share in _holders(ctx, spec, directors):
        if isinstance(holder, int):
            parent = ctx.specs[holder]
            name = ctx.current_names[parent.index]
            since = max(spec.incorporated, parent.incorporated)  # a holder cannot hold before it exists
            entries.append(legal_entry(parent.id, name, None, "SHAREHOLDER", since, spec.end))
            row: dict[str, Any] = {"holder_id": parent.id, "holder_type": "legal_person", "holder_name": name}
        else:
            entries.append(natural_entry(holder, "SHAREHOLDER", spec.incorporated, spec.end, None))
            row = {
                "holder_id": holder.id,
                "holder_type": "natural_person",
                "holder_name": holder.full_name,
                "holder_details": holder.details(),
            }
        ctx.shareholdings.append({"company_id": spec.id, **row, "share": share})
    return entries


def _owners_of_corporation(ctx: Context, spec: Spec) -> None:
    """Shareholders of an AG/SE/KGaA are not in the register; the world still knows them (for UBOs)."""
    rng = ctx.rngs["board"]
    if rng.random() < 0.35:
        return  # widely held: no one reaches 25 %
    family = [ctx.pool.officer(None, spec.incorporated) for _ in range(rng.randint(1, 3))]
    for person in family:
        ctx.shareholdings.append(
            {
                "company_id": spec.id,
                "holder_id": person.id,
                "holder_type": "natural_person",
                "holder_name": person.full_name,
                "holder_details": person.details(),
                "share": round(rng.uniform(0.26, 1 / len(family)), 4),
            }
        )
