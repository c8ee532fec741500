"""A company incorporated after the world's ``as_of``: its record and shareholdings, made by a world's own stages.

The continuation (:mod:`.continuation`) incorporates new companies day by day. Each is made as a generated
world makes its companies: one :class:`~.specs.Spec` (its legal form, court, register number, WZ class and
incorporation day) goes through the record stages — its name, address, capital, board and shareholders (persons
new to the world), purpose, details, documents (the articles and, for a GmbH or UG, the shareholder list filed
at incorporation), contact — and the ``holdings`` stage's rows. The stages draw from generators of their own,
seeded from the world's seed, the day and the company's number that day, so the same day gives the same
companies, and nothing a company drew changes another's.

A spin-off to a new company (Ausgliederung zur Neugründung, :func:`spun_off_company`) is made the same way: a
GmbH at the transferor's court, named after it, whose one shareholder is the transferor.

A new company has published no accounts (a GmbH or UG files its first fiscal year's report, ending 31 December,
through the continuation's filings), holds no stake in another company and has no Transparenzregister entry yet.
"""

from __future__ import annotations

import datetime as dt
import random
import zlib
from collections.abc import Iterable, Mapping
from typing import Any

from .company import Context, name_history
from .holdings import RELATION_BY_FORM, company_shareholdings
from .naming import full_name
from .officers import legal_entry
from .people import PersonPool
from .record import company_record
from .reference import Reference
from .registers import SUFFIX_COURTS
from .specs import REGISTER_TYPE, Registration, Spec

__all__ = ["FORMS", "RegisterNumbers", "incorporated_company", "spun_off_company"]

#: The legal forms of new registrations and their weights: about nine in ten new entries of the commercial
#: register are GmbHs and UGs, most of the rest sole traders (e.K.).
FORMS: Mapping[str, float] = {"gmbh": 0.66, "ug": 0.26, "ek": 0.08}

#: What a spun-off company is named for when the sector word would repeat the transferor's name.
_SPUN_OFF_WORDS = ("Projekte", "Technik", "Vertrieb", "Immobilien", "Dienstleistungen")

#: The record stages a new company draws from (each its own generator).
_STAGES = (
    "founding",
    "names",
    "addresses",
    "capitals",
    "board",
    "purposes",
    "details",
    "accounts",
    "documents",
    "contact",
    "holdings",
)


class RegisterNumbers:
    """The next free register numbers by court and register: above the highest number a company of the world has
    (or had: former register entries count) there, as a court numbers its new entries.

    Parameters
    ----------
    company_ids : iterable of str
        The ids (``DE-HRB-B1234-56789``) already given, current and former.
    """

    def __init__(self, company_ids: Iterable[str]) -> None:
        self._highest: dict[tuple[str, str], int] = {}
        for company_id in company_ids:
            parts = company_id.split("-")
            if len(parts) != 4:
                continue
            digits = "".join(ch for ch in parts[3] if ch.isdigit())
            if digits:
                key = (parts[2], parts[1])
                self._highest[key] = max(self._highest.get(key, 0), int(digits))

    def next(self, court_code: str, register_type: str, rng: random.Random) -> str:
        """A new number at ``court_code`` in ``register_type`` (a few above the last one given), with the
        court's suffix where it has one (``270764 B``)."""
        key = (court_code, register_type)
        number = self._highest.get(key, 1_000) + rng.randint(1, 40)
        self._highest[key] = number
        suffix = SUFFIX_COURTS.get(court_code, "")
        return f"{number} {suffix}" if suffix else str(number)


def incorporated_company(
    seed: int | str,
    day: dt.date,
    number: int | str,
    reference: Reference,
    numbers: RegisterNumbers,
    *,
    founded_as: tuple[str, Any, str] | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The record and the shareholdings rows of the ``number``-th company incorporated on ``day`` (``number``, any
    label that sets this company apart from the day's others, seeds its stages).

    The record is a CompanyV1 as a world's build writes it (without ``sources`` and ``insolvencies``), active,
    ``incorporated_at`` and every history entry on ``day``; the rows are the shareholders' (a GmbH's or UG's;
    none for a sole trader), each from ``day``. ``founded_as`` (legal form, court, name stem) sets what is
    otherwise drawn (:func:`spun_off_company`).
    """
    rngs = {
        stage: random.Random(f"regkit-world/continuation/{seed}/{day.isoformat()}/incorporation/{number}/{stage}")
        for stage in _STAGES
    }
    founding = rngs["founding"]
    legal_form = founding.choices(list(FORMS), weights=list(FORMS.values()))[0]
    court = reference.current_courts.draw(founding)
    stem = ""
    if founded_as is not None:
        legal_form, court, stem = founded_as
    wz = reference.wz_subclasses[founding.randrange(len(reference.wz_subclasses))]
    register_type = REGISTER_TYPE[legal_form]
    registration = Registration(court, register_type, day, numbers.next(court.code, register_type, founding))
    spec = Spec(
        index=0,
        legal_form=legal_form,
        incorporated=day,
        wz=wz,
        size="small",
        stem=stem,
        registrations=(registration,),
    )
    # every officer and founder a new person (a pool of one company would hand the same person a second seat)
    pool = PersonPool(rngs["board"], reference, reuse_rate=0.0)
    ctx = Context(rngs=rngs, reference=reference, pool=pool, as_of=day, specs=[spec])
    names = name_history(ctx, spec)
    ctx.current_names = [names[-1]["name"]]
    record = company_record(ctx, spec, names)
    rows = company_shareholdings(rngs["holdings"], record, ctx.shareholdings, day) if ctx.shareholdings else []
    return record, rows


def spun_off_company(
    seed: int | str,
    day: dt.date,
    reference: Reference,
    numbers: RegisterNumbers,
    transferor: Mapping[str, Any],
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The record and the one shareholdings row of a GmbH founded on ``day`` by a spin-off from ``transferor`` (the
    record of an active company of the world): at the transferor's court, named after it (its name's stem), its
    one shareholder the transferor, holding the whole capital from ``day`` (its documents, the shareholder list
    filed at incorporation included, are :func:`incorporated_company`'s)."""
    code = transferor["id"].split("-")[2]
    court = next(court for court in reference.courts if court.code == code)
    stem = transferor["name"]["name"].rsplit(" ", 2)[0]
    label = f"spin-off/{transferor['id']}"
    record, _ = incorporated_company(seed, day, label, reference, numbers, founded_as=("gmbh", court, stem))
    if record["name"]["name"] == transferor["name"]["name"]:  # the same sector word: named for what it takes over
        word = _SPUN_OFF_WORDS[zlib.crc32(record["id"].encode()) % len(_SPUN_OFF_WORDS)]
        for entry in (record["name"], *record["names"]):
            entry["name"] = full_name(stem, word, "gmbh")
    holder = legal_entry(
        transferor["id"],
        transferor["name"]["name"],
        (transferor.get("address") or {}).get("city"),
        "SHAREHOLDER",
        day,
        None,
    )
    record["representation"] = sorted(
        [entry for entry in record["representation"] if entry["role"] != "SHAREHOLDER"] + [holder],
        key=lambda entry: (entry["start_date"], entry["role"], entry["name"]),
    )
    capital = record["capital"]["amount"]
    row = {
        "company_id": record["id"],
        "holder_id": transferor["id"],
        "holder_type": "legal_person",
        "holder_name": transferor["name"]["name"],
        "relation_type": RELATION_BY_FORM["gmbh"],
        "share": 1.0,
        "nominal_share": round(float(capital), 2),
        "start": day.isoformat(),
        "end": None,
    }
    return record, [row]
