"""Assembling a CompanyV1 record (field order as in the interface) and the shareholdings behind it."""

from __future__ import annotations

from datetime import date, timedelta

from .company import Context, _addresses, _capitals, _contact, _documents, _iso
from .financials import indicator_series
from .naming import purpose_text
from .officers import legal_entry, natural_entry, representation, rule_for
from .people import Person, new_uuid, random_date
from .plan import Link, Spec

__all__ = ["company_record"]

_HOLDER_FORMS = {"gmbh", "ug", "ggmbh", "kg", "ohg"}


def _link(ctx: Context, link: Link) -> dict:
    other = ctx.specs[link.other]
    return {"company_id": other.id, "name": ctx.names[other.index][-1]["name"],
            "registration_date": link.registration_date.isoformat(), "agreement_date": _iso(link.agreement_date)}


def _holdings(ctx: Context, spec: Spec, directors: list[Person]) -> list[dict]:
    """SHAREHOLDER entries and ``shareholdings.jsonl`` rows: the parent company, founders, minorities."""
    rng = ctx.rng
    end = spec.end
    holders: list[tuple[str, object, float]] = []
    if spec.parent is not None:
        holders.append(("company", spec.parent, spec.parent_share))
        if spec.parent_share < 1:
            holders.append(("person", ctx.pool.officer(None, spec.incorporated), round(1 - spec.parent_share, 4)))
    else:
        count = 1 if rng.random() < 0.5 else rng.randint(2, 4)
        people = [directors[i] if i < len(directors) and rng.random() < 0.7 else ctx.pool.officer(None, spec.incorporated)
                  for i in range(count)]
        people = list(dict.fromkeys(people))
        weights = [rng.randint(1, 10) for _ in people]
        shares = [round(w / sum(weights), 4) for w in weights]
        shares[-1] = round(1 - sum(shares[:-1]), 4)
        holders.extend(("person", p, round(s, 4)) for p, s in zip(people, shares))
    entries = []
    for kind, holder, share in holders:
        if kind == "company":
            parent = ctx.specs[holder]  # type: ignore[index]
            name = ctx.names[parent.index][-1]["name"]
            since = max(spec.incorporated, parent.incorporated)  # a holder cannot hold before it exists
            entries.append(legal_entry(parent.id, name, None, "SHAREHOLDER", since, end))
            ctx.shareholdings.append({"company_id": spec.id, "holder_id": parent.id, "holder_type": "legal_person",
                                      "holder_name": name, "share": share})
        else:
            person: Person = holder  # type: ignore[assignment]
            entries.append(natural_entry(person, "SHAREHOLDER", spec.incorporated, end, None))
            ctx.shareholdings.append({"company_id": spec.id, "holder_id": person.id, "holder_type": "natural_person",
                                      "holder_name": person.full_name, "share": share})
    return entries


def _owners_of_corporation(ctx: Context, spec: Spec) -> None:
    """Shareholders of an AG/SE/KGaA are not in the register; the world still knows them (for UBOs)."""
    rng = ctx.rng
    if rng.random() < 0.35:
        return  # widely held: no one reaches 25 %
    family = [ctx.pool.officer(None, spec.incorporated) for _ in range(rng.randint(1, 3))]
    for person in family:
        ctx.shareholdings.append({"company_id": spec.id, "holder_id": person.id, "holder_type": "natural_person",
                                  "holder_name": person.full_name, "share": round(rng.uniform(0.26, 1 / len(family)), 4)})


def company_record(ctx: Context, spec: Spec) -> dict:
    """The CompanyV1 record of ``spec`` (without ``sources`` and ``insolvencies``)."""
    rng = ctx.rng
    names = ctx.names[spec.index]
    addresses = _addresses(ctx, spec)
    city = addresses[-1]["city"]
    stop = spec.end or ctx.as_of
    capitals = _capitals(ctx, spec)
    shared = ctx.directors.get(spec.group or "", []) if spec.parent is not None and rng.random() < 0.6 else None
    general = None
    if spec.general_partner is not None:
        partner = ctx.specs[spec.general_partner]
        start = max(spec.incorporated, partner.incorporated)
        general = legal_entry(partner.id, ctx.names[partner.index][-1]["name"], None, "PERSONAL_LIABLE_DIRECTOR", start, None)
    provisional, _ = representation(rng, ctx.reference, ctx.pool, legal_form=spec.legal_form, city=city,
                                    start=spec.incorporated, stop=stop, terminated_at=spec.end,
                                    liquidation_start=spec.liquidation_start, shareholders=[], general_partner=general,
                                    shared_directors=shared)
    directors = [ctx.pool.by_id[e["id"]] for e in provisional if e["role"] in {"DIRECTOR", "OWNER", "PARTNER"} and e["id"] in ctx.pool.by_id]
    shareholders = _holdings(ctx, spec, directors) if spec.legal_form in _HOLDER_FORMS else []
    if spec.legal_form in {"ag", "se", "kgaa"} and spec.parent is None:
        _owners_of_corporation(ctx, spec)
    entries = provisional + shareholders
    entries.sort(key=lambda e: (e["start_date"], e["role"], e["name"]))
    if spec.group and spec.parent is None:
        ctx.directors[spec.group] = directors
    has_purpose = spec.registrations[0].register_type in {"HRB", "GnR", "VR"} or rng.random() < 0.5
    purposes = []
    if has_purpose:
        purposes.append({"purpose": purpose_text(spec.wz[1], spec.legal_form), "start_date": spec.incorporated.isoformat()})
        if (stop - spec.incorporated).days > 2000 and rng.random() < 0.2:
            code, title = ctx.reference.wz_subclasses[rng.randrange(len(ctx.reference.wz_subclasses))]
            changed = random_date(rng, spec.incorporated + timedelta(days=800), stop - timedelta(days=100))
            purposes.append({"purpose": purpose_text(title, spec.legal_form), "start_date": changed.isoformat()})
    registers = [{"company_id": r.company_id, "register_number": r.number, "register_type": r.register_type,
                  "register_court": r.court.name, "start_date": r.start.isoformat()} for r in spec.registrations]
    distress = spec.insolvency_filed.year if spec.insolvency_filed and spec.insolvency not in {"unknown"} else None
    indicators = indicator_series(rng, spec.legal_form, max(spec.incorporated.year + 1, 2008), stop.year - 1, spec.size,
                                  distress, ctx.as_of)
    if indicators and rng.random() < 0.015:  # a corrected report for the same date: both are published
        corrected = dict(indicators[-1], report_id=new_uuid(rng))
        if corrected["equity"] is not None:
            corrected["equity"] += rng.randint(-500_000, 500_000)
        indicators.append(corrected)
    codes = [{"code": spec.wz[0]}]
    if rng.random() < 0.15:
        codes.append({"code": ctx.reference.wz_subclasses[rng.randrange(len(ctx.reference.wz_subclasses))][0]})
    record = {
        "id": spec.id,
        "register": registers[-1],
        "registers": registers,
        "status": spec.status,
        "name": names[-1],
        "names": names,
        "address": addresses[-1],
        "addresses": addresses,
        "purpose": purposes[-1] if purposes else None,
        "purposes": purposes,
        "capital": capitals[-1] if capitals else None,
        "capitals": capitals,
        "representation": entries,
        "representation_rule": rule_for(spec.legal_form) if rng.random() < 0.9 else None,
        "indicators": indicators,
        "legal_form": spec.legal_form,
    }
    if spec.legal_form in {"ag", "se", "kgaa"} and rng.random() < 0.6:
        record["lei"] = _lei(rng)
    has_list = spec.legal_form in {"gmbh", "ug", "ggmbh"}
    record.update({
        "documents": _documents(ctx, spec, names, capitals, has_list),
        "incorporated_at": spec.incorporated.isoformat(),
        "notarized_at": _iso(spec.incorporated - timedelta(days=rng.randint(7, 90)))
        if spec.registrations[0].register_type in {"HRB", "GnR"} else None,
        "terminated_at": _iso(spec.end),
        "merged_into": _link(ctx, spec.merged_into) if spec.merged_into else None,
        "acquisitions": [_link(ctx, link) for link in spec.acquisitions],
        "asset_spin_offs": [_link(ctx, link) for link in spec.spin_offs],
        "profit_transfer_agreement": _link(ctx, spec.profit_transfer) if spec.profit_transfer else None,
        "industry_codes": {"WZ2025": codes},
        "contact": _contact(rng, names[-1]["name"]) if spec.status == "active" else None,
    })
    return record


def _lei(rng) -> str:
    """A syntactically valid LEI (ISO 17442: 18 characters and two ISO 7064 MOD 97-10 check digits)."""
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    body = "5299" + "00" + "".join(rng.choice(alphabet) for _ in range(12))
    number = int("".join(str(int(ch, 36)) for ch in body) + "00")
    return f"{body}{98 - number % 97:02d}"
