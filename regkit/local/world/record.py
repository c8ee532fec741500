"""Assembling a CompanyV1 record (field order as in the interface) from the record stages.

The histories come from :mod:`.company` (``names``, ``addresses``, ``capitals``), the representation from
:mod:`.board` (``board``); purposes, accounts, documents, the small details and contact data are drawn here,
each from its own stage's generator.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from .board import board_of
from .company import Context, addresses_of, capitals_of
from .financials import indicator_series
from .naming import purpose_text, slug
from .officers import rule_for
from .people import iso_or_none, new_uuid, random_date
from .reference import Reference
from .specs import Link, Registration, Spec

__all__ = ["company_record", "register_entry"]

_PHONE_RANGES = (("030", "23125"), ("069", "90009"), ("040", "66969"), ("0221", "47110"), ("089", "99998"))


def company_record(ctx: Context, spec: Spec, names: list[dict]) -> dict:
    """The CompanyV1 record of ``spec`` with its name history ``names`` (without ``sources`` and ``insolvencies``)."""
    addresses = addresses_of(ctx, spec)
    capitals = capitals_of(ctx, spec)
    representation = board_of(ctx, spec, addresses[-1]["city"])
    purposes = _purposes(ctx.rngs["purposes"], ctx, spec)
    registers = [register_entry(r) for r in spec.registrations]
    details = _details(ctx.rngs["details"], ctx.reference, spec)
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
        "representation": representation,
        "representation_rule": details["representation_rule"],
        "indicators": _indicators(ctx.rngs["accounts"], ctx, spec),
        "legal_form": spec.legal_form,
    }
    if "lei" in details:
        record["lei"] = details["lei"]
    record.update(_links_and_more(ctx, spec, names, capitals, details))
    return record


def register_entry(registration: Registration) -> dict[str, Any]:
    """The CompanyRegister of one register entry (its ``company_id`` is the company's id while it is current)."""
    return {
        "company_id": registration.company_id,
        "register_number": registration.number,
        "register_type": registration.register_type,
        "register_court": registration.court.name,
        "start_date": registration.start.isoformat(),
    }


def _links_and_more(ctx: Context, spec: Spec, names: list[dict], capitals: list[dict], details: dict) -> dict:
    """The record's members after ``legal_form`` (and ``lei``): documents, dates, links, codes, contact."""
    return {
        "documents": _documents(ctx.rngs["documents"], spec, names, capitals),
        "incorporated_at": spec.incorporated.isoformat(),
        "notarized_at": details["notarized_at"],
        "terminated_at": iso_or_none(spec.end),
        "merged_into": _link(ctx, spec.merged_into) if spec.merged_into else None,
        "acquisitions": [_link(ctx, link) for link in spec.acquisitions],
        "asset_spin_offs": [_link(ctx, link) for link in spec.spin_offs],
        "profit_transfer_agreement": _link(ctx, spec.profit_transfer) if spec.profit_transfer else None,
        "industry_codes": details["industry_codes"],
        "contact": _contact(ctx.rngs["contact"], names[-1]["name"]) if spec.status == "active" else None,
    }


def _link(ctx: Context, link: Link) -> dict:
    other = ctx.specs[link.other]
    return {
        "company_id": other.id,
        "name": ctx.current_names[other.index],
        "registration_date": link.registration_date.isoformat(),
        "agreement_date": iso_or_none(link.agreement_date),
    }


def _purposes(rng: random.Random, ctx: Context, spec: Spec) -> list[dict]:
    """The ``purposes`` stage: the purpose from the WZ class (always in HRB, GnR, VR), now and then a new one."""
    if spec.registrations[0].register_type not in {"HRB", "GnR", "VR"} and rng.random() >= 0.5:
        return []
    stop = spec.end or ctx.as_of
    purposes = [{"purpose": purpose_text(spec.wz[1], spec.legal_form), "start_date": spec.incorporated.isoformat()}]
    if (stop - spec.incorporated).days > 2000 and rng.random() < 0.2:
        _, title = ctx.reference.wz_subclasses[rng.randrange(len(ctx.reference.wz_subclasses))]
        changed = random_date(rng, spec.incorporated + timedelta(days=800), stop - timedelta(days=100))
        purposes.append({"purpose": purpose_text(title, spec.legal_form), "start_date": changed.isoformat()})
    return purposes


def _indicators(rng: random.Random, ctx: Context, spec: Spec) -> list[dict]:
    """The ``accounts`` stage: yearly indicators (distress before an insolvency) and now and then a correction."""
    stop = spec.end or ctx.as_of
    distress = spec.insolvency_filed.year if spec.insolvency_filed and spec.insolvency != "unknown" else None
    indicators = indicator_series(
        rng, spec.legal_form, max(spec.incorporated.year + 1, 2008), stop.year - 1, spec.size, distress, ctx.as_of
    )
    if indicators and rng.random() < 0.015:  # a corrected report for the same date: both are published
        corrected = dict(indicators[-1], report_id=new_uuid(rng))
        if corrected["equity"] is not None:
            shift = rng.randint(-500_000, 500_000)  # cents; the balance sheet total stays, liabilities make up
            corrected["equity"] += shift
            corrected["liabilities"] -= shift
        indicators.append(corrected)
    return indicators


def _details(rng: random.Random, reference: Reference, spec: Spec) -> dict:
    """The ``details`` stage: representation rule, LEI, notarization date, WZ codes (a secondary one now and then)."""
    details: dict = {"representation_rule": rule_for(spec.legal_form) if rng.random() < 0.9 else None}
    if spec.legal_form in {"ag", "se", "kgaa"} and rng.random() < 0.6:
        details["lei"] = _lei(rng)
    notarized = spec.registrations[0].register_type in {"HRB", "GnR"}
    details["notarized_at"] = iso_or_none(spec.incorporated - timedelta(days=rng.randint(7, 90))) if notarized else None
    codes = [{"code": spec.wz[0]}]
    if rng.random() < 0.15:
        codes.append({"code": reference.wz_subclasses[rng.randrange(len(reference.wz_subclasses))][0]})
    details["industry_codes"] = {"WZ2025": codes}
    return details


def _documents(rng: random.Random, spec: Spec, names: list[dict], capitals: list[dict]) -> list[dict]:
    """The ``documents`` stage: articles for every change of name or capital, shareholder lists, a sample protocol."""
    if spec.registrations[0].register_type not in {"HRB", "GnR", "VR"}:
        return []
    dates = sorted(
        {spec.incorporated.isoformat(), *[n["start_date"] for n in names[1:]], *[c["start_date"] for c in capitals[1:]]}
    )
    docs = [{"id": new_uuid(rng), "type": "articles_of_association", "date": d, "latest": False} for d in dates]
    if spec.legal_form in {"gmbh", "ug", "ggmbh"}:
        lists = sorted({spec.incorporated.isoformat(), *dates[1:]})
        docs += [{"id": new_uuid(rng), "type": "shareholder_list", "date": d, "latest": False} for d in lists]
    if (spec.origin_form or spec.legal_form) == "ug" or (spec.legal_form == "gmbh" and rng.random() < 0.1):
        docs.append(
            {"id": new_uuid(rng), "type": "sample_protocol", "date": spec.incorporated.isoformat(), "latest": False}
        )
    for kind in {d["type"] for d in docs}:
        newest = max((d for d in docs if d["type"] == kind), key=lambda d: d["date"])
        newest["latest"] = True
    return sorted(docs, key=lambda d: (d["type"], d["date"]))


def _contact(rng: random.Random, name: str) -> dict | None:
    """The ``contact`` stage: about half of the active companies publish a website, most of them more."""
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


def _lei(rng: random.Random) -> str:
    """A syntactically valid LEI (ISO 17442: 18 characters and two ISO 7064 MOD 97-10 check digits)."""
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    body = "5299" + "00" + "".join(rng.choice(alphabet) for _ in range(12))
    number = int("".join(str(int(ch, 36)) for ch in body) + "00")
    return f"{body}{98 - number % 97:02d}"
