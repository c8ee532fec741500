"""Building a whole world deterministically from a seed and a size."""

from __future__ import annotations

import copy
import gc
import random
from datetime import date, timedelta
from pathlib import Path

from .company import Context, name_history
from .insolvency import schedule_person
from .meta import scenarios, transparency_entities, world_meta
from .people import PersonPool, random_date
from .plan import plan_companies
from .proceedings import Administrators, CaseNumbers, proceeding_record, summary_of
from .record import company_record
from .reference import load_reference
from .store import World, default_reference_dir

__all__ = ["AS_OF", "DEFAULT_SEED", "DEFAULT_SIZE", "GENERATOR", "build_world"]

#: The date the world's stored copy was taken; realtime lookups show changes after it.
AS_OF = date(2026, 6, 30)
DEFAULT_SEED = 20261121
DEFAULT_SIZE = 5000
GENERATOR = "regkit-world/1"


def build_world(size: int = DEFAULT_SIZE, seed: int = DEFAULT_SEED, reference_dir: Path | None = None) -> World:
    """Build a world of ``size`` companies from ``seed``.

    The same ``size`` and ``seed`` always give the same world (and, written with
    :func:`~regkit.local.world.store.write_world`, the same bytes).
    """
    if size < 50:
        raise ValueError(f"a world needs at least 50 companies to hold every shape the interface can express; got {size}")
    # Millions of long-lived dicts and no reference cycles: the cyclic collector would only rescan them
    # again and again (a 100,000-company build spent half its time there).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _build(size, seed, reference_dir)
    finally:
        if collecting:
            gc.enable()


def _build(size: int, seed: int, reference_dir: Path | None) -> World:
    rng = random.Random(seed)
    reference = load_reference(reference_dir or default_reference_dir())
    specs, groups, timelines = plan_companies(rng, reference, size, AS_OF)
    pool = PersonPool(rng, reference)
    ctx = Context(rng=rng, reference=reference, pool=pool, as_of=AS_OF, specs=specs)
    for spec in specs:
        ctx.names[spec.index] = name_history(ctx, spec)
    companies = {}
    for spec in specs:
        record = company_record(ctx, spec)
        companies[record["id"]] = record
    insolvencies = _proceedings(rng, ctx, specs, timelines, size, companies)
    for proceeding in insolvencies.values():
        if proceeding["company_id"]:
            companies[proceeding["company_id"]].setdefault("insolvencies", []).append(summary_of(proceeding))
    entities = transparency_entities(rng, companies)
    realtime = _pending_changes(rng, ctx, companies)
    meta = world_meta(seed, size, AS_OF, GENERATOR, groups=[
        {"id": g["id"], "name": g["name"], "organtraeger": specs[g["organtraeger"]].id,
         "members": [specs[i].id for i in g["members"]]} for g in groups
    ], entities=entities)
    meta["former_ids"] = {
        r["company_id"]: c["id"] for c in companies.values() for r in c["registers"][:-1] if r["company_id"] != c["id"]
    }
    meta["scenarios"] = scenarios(specs, companies, insolvencies, entities, realtime, groups)
    return World(meta=meta, companies=companies, realtime=realtime, insolvencies=insolvencies,
                 shareholdings=ctx.shareholdings)


def _proceedings(rng: random.Random, ctx: Context, specs, timelines, size: int, companies) -> dict[str, dict]:
    cases = CaseNumbers(rng)
    administrators = Administrators(rng, ctx.pool, max(12, size // 80), ctx.reference)
    records: dict[str, dict] = {}
    for spec in specs:
        timeline = timelines.get(spec.index)
        if timeline is None:
            continue
        court = spec.registrations[-1].court
        names = ctx.names[spec.index]
        filed_name = next((n for n in reversed(names) if n["start_date"] <= timeline.events[0][1].isoformat()), names[0])
        record = proceeding_record(
            rng, timeline, court=court, case_number=cases.allocate(court, False, timeline.events[0][1]),
            debtor_name=filed_name["name"], debtor_kind="legal_person", debtor_legal_form=filed_name["legal_form"],
            company_id=spec.id, person=None, city=companies[spec.id]["address"]["city"], administrators=administrators,
        )
        records[record["id"]] = record
    persons = max(1, round(size * 0.1))
    for _ in range(persons):
        court = ctx.reference.current_courts.draw(rng)
        places = ctx.reference.court_places[court.code]
        place = places[rng.randrange(len(places))]
        person = ctx.pool.create(city=place.city, born_before=date(2000, 1, 1))
        timeline = schedule_person(rng, AS_OF)
        consumer_case = cases.allocate(court, rng.random() < 0.8, timeline.events[0][1])
        record = proceeding_record(
            rng, timeline, court=court, case_number=consumer_case, debtor_name=person.full_name,
            debtor_kind="natural_person", debtor_legal_form=None, company_id=None, person=person, city=place.city,
            administrators=administrators,
        )
        record["proceeding_kind"] = "consumer_insolvency" if " IK " in consumer_case else "regular_insolvency"
        records[record["id"]] = record
    return records


def _pending_changes(rng: random.Random, ctx: Context, companies: dict[str, dict]) -> dict[str, dict]:
    """A few register changes after the stored copy's date that only a realtime lookup shows."""
    candidates = [c for c in companies.values() if c["status"] == "active" and "insolvencies" not in c
                  and c["legal_form"] in {"gmbh", "ag"} and c["capital"] is not None]
    realtime = {}
    step = max(1, len(candidates) // 12)
    for number, company in enumerate(candidates[::step][:12]):
        changed = copy.deepcopy(company)
        day = random_date(rng, AS_OF + timedelta(days=5), AS_OF + timedelta(days=120)).isoformat()
        kind = number % 3
        if kind == 0:
            address = dict(changed["address"], start_date=day, street=f"Neue Straße {rng.randint(1, 99)}")
            address["formatted_value"] = ", ".join(p for p in (address.get("extra"), address["street"],
                                                                f"{address.get('postal_code', '')} {address['city']}".strip()) if p)
            changed["addresses"].append(address)
            changed["address"] = address
        elif kind == 1:
            person = ctx.pool.create(city=changed["address"]["city"], born_before=date(1998, 1, 1))
            authority = ctx.reference.authority["director"].draw(rng)
            from .officers import natural_entry

            changed["representation"].append(natural_entry(person, "DIRECTOR", date.fromisoformat(day), None, authority))
        else:
            capital = dict(changed["capital"], start_date=day, currency="EUR")
            capital["amount"] = float(max(capital["amount"], 25_000.0) * 2)
            changed["capitals"].append(capital)
            changed["capital"] = capital
        realtime[changed["id"]] = changed
    return realtime
