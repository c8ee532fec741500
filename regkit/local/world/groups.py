"""The ``groups`` and ``group-links`` stages: group structures, then agreements, mergers and spin-offs in them.

A group is an Organträger (AG, GmbH, SE or KGaA) and 2–29 companies below it, some of them intermediate
holdings. The ``groups`` stage decides the structure before any company is founded (the group companies
take the first indices); the ``group-links`` stage, once the companies exist, decides profit-transfer
agreements (to the direct parent), mergers into the Organträger and spin-offs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from .naming import STEM_PREFIXES, STEM_SUFFIXES
from .people import random_date
from .specs import Founding, Link, Links

__all__ = ["GroupPlan", "Member", "plan_groups", "plan_group_links"]

_STEMS = (
    "Nordstern",
    "Hanseatic",
    "Alpenblick",
    "Rheintal",
    "Elbwerk",
    "Mainfeld",
    "Isarlicht",
    "Weserbogen",
    "Moselhof",
    "Lindenkraft",
    "Falkenstein",
    "Eichenhof",
    "Sternquelle",
    "Sonnenfeld",
    "Bergkraft",
    "Talbrücke",
    "Waldstein",
    "Seeblick",
    "Kronwerk",
    "Terrasol",
    "Aquavit",
    "Novalux",
    "Optiform",
    "Medicon",
    "Datalog",
    "Grünfeld",
    "Blauwerk",
    "Tannenhof",
    "Inntal",
    "Saalewerk",
)
_TOP_FORMS, _TOP_WEIGHTS = ("ag", "gmbh", "se", "kgaa"), (40, 45, 10, 5)


@dataclass(frozen=True)
class Member:
    """One company of a group as the ``groups`` stage plans it (the Organträger has no parent)."""

    index: int
    legal_form: str
    parent: int | None = None
    parent_share: float = 1.0
    general_partner: int | None = None
    with_top_court: bool = False  # registered at the Organträger's court


@dataclass(frozen=True)
class GroupPlan:
    """A group: its id (``G001``), name (the stem all its companies share) and members, Organträger first."""

    id: str
    name: str
    members: tuple[Member, ...]

    @property
    def indices(self) -> list[int]:
        """The members' company indices, Organträger first."""
        return [m.index for m in self.members]


def _group_size(rng: random.Random) -> int:
    low, high = rng.choices([(3, 5), (6, 10), (11, 20), (21, 30)], [50, 30, 15, 5])[0]
    return rng.randint(low, high)


def _group_stem(rng: random.Random, used: set[str]) -> str:
    parts = 2
    for attempt in range(10_000):
        stem = STEM_PREFIXES[rng.randrange(len(STEM_PREFIXES))] + "".join(
            STEM_SUFFIXES[rng.randrange(len(STEM_SUFFIXES))] for _ in range(parts - 1)
        )
        if stem not in used:
            return stem
        if attempt % 40 == 39:  # two-part stems run out in large worlds: use longer ones
            parts += 1
    raise RuntimeError("no unused group name left")


def _members(rng: random.Random, start: int, count: int) -> list[Member]:
    """The Organträger at ``start`` and ``count - 1`` companies below it (GmbH, some GmbH & Co. KG)."""
    top_form = rng.choices(_TOP_FORMS, _TOP_WEIGHTS)[0]
    members = [Member(start, top_form)]
    holdings = [start]
    for position in range(count - 1):
        form = "kg" if rng.random() < 0.12 else "gmbh"
        with_top_court = rng.random() < 0.6
        parent = holdings[0] if len(holdings) == 1 or rng.random() < 0.6 else holdings[rng.randrange(len(holdings))]
        share = 1.0 if rng.random() < 0.8 else round(rng.uniform(0.51, 0.95), 2)
        members.append(Member(start + 1 + position, form, parent, share, None, with_top_court))
        if form == "gmbh" and position < 6 and rng.random() < 0.3:
            holdings.append(start + 1 + position)
    return _with_general_partners(members)


def _with_general_partners(members: list[Member]) -> list[Member]:
    """A KG's general partner is the group's first GmbH; in a group without one, the KG is a GmbH."""
    partners = [m.index for m in members if m.legal_form == "gmbh"]
    result = []
    for member in members:
        if member.legal_form == "kg":
            partner = next((i for i in partners if i != member.index), None)
            member = Member(
                member.index,
                "kg" if partner is not None else "gmbh",
                member.parent,
                member.parent_share,
                partner,
                member.with_top_court,
            )
        result.append(member)
    return result


def plan_groups(rng: random.Random, size: int) -> list[GroupPlan]:
    """The ``groups`` stage: groups of 3–30 companies, a sixth of the world, at indices from 0 on."""
    groups: list[GroupPlan] = []
    budget, start = size // 6, 0
    used_stems: set[str] = set(_STEMS)
    while budget >= 3:
        number = len(groups) + 1
        count = min(budget, max(3, _group_size(rng)))
        budget -= count
        stem = _STEMS[number - 1] if number <= len(_STEMS) else _group_stem(rng, used_stems)
        used_stems.add(stem)
        groups.append(GroupPlan(f"G{number:03d}", stem, tuple(_members(rng, start, count))))
        start += count
    return groups


def plan_group_links(rng: random.Random, founded: Sequence[Founding], groups: list[GroupPlan], as_of: date) -> Links:
    """The ``group-links`` stage: agreements, mergers into the Organträger and spin-offs, group by group."""
    links = Links()
    for group in groups:
        indices = group.indices
        _profit_transfers(rng, founded, indices, as_of, links)
        _mergers_into_top(rng, founded, indices, as_of, links)
        _spin_off(rng, founded, indices, links)
    return links


def _profit_transfers(
    rng: random.Random, founded: Sequence[Founding], indices: list[int], as_of: date, links: Links
) -> None:
    """A wholly owned GmbH transfers its profit to its direct parent (75 %), from a date after both exist."""
    for index in indices[1:]:
        member = founded[index]
        parent = founded[member.parent]  # type: ignore[index]
        earliest = max(member.incorporated, parent.incorporated) + timedelta(days=60)
        if (
            member.legal_form != "kg"
            and member.parent_share == 1.0
            and earliest < as_of - timedelta(days=90)
            and rng.random() < 0.75
        ):
            registered = random_date(rng, earliest, as_of - timedelta(days=90))
            agreed = registered - timedelta(days=rng.randint(20, 120)) if rng.random() < 0.85 else None
            links.profit_transfer[index] = Link(parent.index, registered, agreed)


def _mergers_into_top(
    rng: random.Random, founded: Sequence[Founding], indices: list[int], as_of: date, links: Links
) -> None:
    """Now and then (45 %) one to three GmbHs that neither transfer profit nor hold anything merge into the
    Organträger in one transaction (one agreement date; some mergers register without one)."""
    holders = {founded[j].parent for j in indices} | {founded[j].general_partner for j in indices}
    absorbable = [
        i
        for i in indices[1:]
        if i not in links.profit_transfer and founded[i].legal_form == "gmbh" and i not in holders
    ]
    if len(absorbable) < 2 or rng.random() >= 0.45:
        return
    chosen = absorbable[: min(len(absorbable), rng.randint(1, 3))]
    earliest = max(date(2012, 1, 1), max(founded[i].incorporated for i in chosen) + timedelta(days=400))
    latest = as_of - timedelta(days=120)
    if earliest > latest:
        return
    registered = random_date(rng, earliest, latest)
    agreed = registered - timedelta(days=rng.randint(30, 150))
    for index in chosen:
        links.merge(index, indices[0], registered, agreed if rng.random() < 0.85 else None)


def _spin_off(rng: random.Random, founded: Sequence[Founding], indices: list[int], links: Links) -> None:
    """Now and then (30 %) a GmbH of the group was founded by a spin-off from the Organträger or its parent."""
    top = founded[indices[0]]
    receivers = [
        i
        for i in indices[1:]
        if i not in links.merged_into
        and founded[i].legal_form == "gmbh"
        and founded[i].incorporated > top.incorporated + timedelta(days=400)
    ]
    if not receivers or rng.random() >= 0.3:
        return
    receiver = founded[receivers[-1]]
    transferor = top.index if rng.random() < 0.5 or receiver.parent is None else receiver.parent
    registered = receiver.incorporated
    links.spin_off(transferor, receiver.index, registered, registered - timedelta(days=rng.randint(10, 60)))
