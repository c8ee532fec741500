"""The plan of one company (:class:`Spec`) and the decisions it is made of; imports nothing else of regkit.

Planning runs in stages (:data:`regkit.local.world.seeding.STAGES`), each with its own random generator.
A stage *returns* what it decides (a :class:`Founding` per company, :class:`Links`, a :class:`Fate`, …);
:func:`regkit.local.world.plan.plan_companies` hands each stage what the earlier ones decided and, at the
end, :func:`settle` puts one company's decisions together into its frozen :class:`Spec`. Nothing is
overwritten later, so no stage depends on the order in which another one writes.

Which stage decides which field of a :class:`Spec`:

================================================  ===================================================
field                                             stage
================================================  ===================================================
``group``, ``parent``, ``parent_share``,          ``groups`` (group structure; also the legal forms
``general_partner``                               of the group's companies)
``index``, ``legal_form``, ``incorporated``,      ``companies`` (:class:`Founding`)
``wz``, ``size``, ``stem``
``origin_form``, ``conversion_date``              ``conversions`` (dropped by :func:`settle` when the
                                                  company ends, is liquidated or files first)
``profit_transfer``, ``spin_offs``                ``group-links``
``merged_into``, ``acquisitions``                 ``group-links`` (inside groups), ``mergers`` (outside)
``liquidation_start``                             ``fates``
``insolvency``, ``insolvency_filed``              ``insolvency`` (the proceeding's timeline)
``terminated``                                    ``mergers``/``group-links``, ``fates`` or ``insolvency``
                                                  (see :func:`ending`)
``registrations``, ``court_moved``                ``registers`` (courts and dates), ``numbers``
================================================  ===================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import date
from typing import Protocol

__all__ = [
    "DISSOLVING_INSOLVENCY",
    "REGISTER_TYPE",
    "Court",
    "Ending",
    "Fate",
    "Founding",
    "Links",
    "Link",
    "Registration",
    "Spec",
    "ending",
    "settle",
]

#: The register each legal form is kept in.
REGISTER_TYPE = {
    "gmbh": "HRB",
    "ug": "HRB",
    "ggmbh": "HRB",
    "ag": "HRB",
    "se": "HRB",
    "kgaa": "HRB",
    "foreign": "HRB",
    "kg": "HRA",
    "ohg": "HRA",
    "ek": "HRA",
    "ewiv": "HRA",
    "municipal": "HRA",
    "gbr": "HRA",
    "eg": "GnR",
    "ev": "VR",
    "unknown": "PR",
    "llp": "PR",
}
#: Final statuses of a proceeding that dissolve the company (in liquidation until it is deleted).
DISSOLVING_INSOLVENCY = frozenset({"opened", "mass_insufficient", "rejected_no_assets", "lifted", "discontinued"})


class Proceeding(Protocol):
    """What an ending needs of an insolvency proceeding's timeline (``regkit.local.world.insolvency.Timeline`` is
    one)."""

    @property
    def status(self) -> str: ...

    @property
    def events(self) -> list[tuple[str, date]]: ...

    @property
    def deleted(self) -> date | None: ...


class Court(Protocol):
    """What a plan needs of a register court (``regkit.local.world.reference.Court`` is one)."""

    @property
    def code(self) -> str: ...

    @property
    def town(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def state(self) -> str: ...

    @property
    def current(self) -> bool: ...


@dataclass(frozen=True)
class Registration:
    """One register entry: court, register type, number, from when."""

    court: Court
    register_type: str
    start: date
    number: str

    @property
    def company_id(self) -> str:
        """``DE-<register type>-<court code>-<number>`` (the number without its space)."""
        return f"DE-{self.register_type}-{self.court.code}-{self.number.replace(' ', '')}"


@dataclass(frozen=True)
class Link:
    """A merger, spin-off or profit-transfer link to another planned company (by index)."""

    other: int
    registration_date: date
    agreement_date: date | None


@dataclass(frozen=True)
class Founding:
    """What the ``companies`` stage decides (with the ``groups`` stage's structure): a company as founded.

    ``court`` is the current register court of the district it was founded in (a former court may have
    kept its register until 2007: the ``registers`` stage decides that).
    """

    index: int
    legal_form: str
    incorporated: date
    court: Court
    wz: tuple[str, str]
    size: str
    stem: str = ""
    group: str | None = None
    parent: int | None = None
    parent_share: float = 1.0
    general_partner: int | None = None


@dataclass
class Links:
    """Links between companies, as the ``group-links`` and ``mergers`` stages return them (by index)."""

    profit_transfer: dict[int, Link] = field(default_factory=dict)
    merged_into: dict[int, Link] = field(default_factory=dict)
    acquisitions: dict[int, list[Link]] = field(default_factory=dict)
    spin_offs: dict[int, list[Link]] = field(default_factory=dict)

    def merge(self, absorbed: int, acquirer: int, registered: date, agreed: date | None) -> None:
        """Record a merger on both sides (``merged_into`` of one, ``acquisitions`` of the other)."""
        self.merged_into[absorbed] = Link(acquirer, registered, agreed)
        self.acquisitions.setdefault(acquirer, []).append(Link(absorbed, registered, agreed))

    def spin_off(self, transferor: int, receiver: int, registered: date, agreed: date | None) -> None:
        """Record a spin-off of ``transferor``'s assets to ``receiver``."""
        self.spin_offs.setdefault(transferor, []).append(Link(receiver, registered, agreed))

    def update(self, other: Links) -> None:
        """Add the links of ``other`` (another stage's, about other companies)."""
        self.profit_transfer.update(other.profit_transfer)
        self.merged_into.update(other.merged_into)
        for mine, theirs in ((self.acquisitions, other.acquisitions), (self.spin_offs, other.spin_offs)):
            for index, links in theirs.items():
                mine.setdefault(index, []).extend(links)


@dataclass(frozen=True)
class Fate:
    """What the ``fates`` stage decides for a company still standing: liquidation, deletion or insolvency."""

    liquidation_start: date | None = None
    deleted: date | None = None
    insolvency: str | None = None  # the planned final status of a proceeding (the ``insolvency`` stage fits it)


@dataclass(frozen=True)
class Ending:
    """How a company's life ends, as far as it has by the world's date."""

    terminated: date | None = None
    liquidation_start: date | None = None
    insolvency: str | None = None
    insolvency_filed: date | None = None


def ending(merged_into: Link | None, fate: Fate | None, proceeding: Proceeding | None = None) -> Ending:
    """Combine a merger, a fate and an insolvency proceeding's timeline into one :class:`Ending`.

    ``proceeding`` is a timeline of the ``insolvency`` stage (``status``, ``events``, ``deleted``) or
    ``None``. A merger ends the company on its registration date; a deletion after an insolvency on the
    timeline's ``deleted``; otherwise the fate's liquidation or deletion.
    """
    if merged_into is not None:
        return Ending(terminated=merged_into.registration_date)
    if proceeding is not None:
        return Ending(
            terminated=proceeding.deleted, insolvency=proceeding.status, insolvency_filed=proceeding.events[0][1]
        )
    if fate is None:
        return Ending()
    return Ending(terminated=fate.deleted, liquidation_start=fate.liquidation_start)


@dataclass(frozen=True)
class Spec:
    """Everything decided about one company before its record is written (see the module's table)."""

    index: int
    legal_form: str
    incorporated: date
    wz: tuple[str, str]
    size: str
    stem: str
    registrations: tuple[Registration, ...]
    court_moved: bool = False
    origin_form: str | None = None
    conversion_date: date | None = None
    group: str | None = None
    parent: int | None = None
    parent_share: float = 1.0
    general_partner: int | None = None
    profit_transfer: Link | None = None
    merged_into: Link | None = None
    acquisitions: tuple[Link, ...] = ()
    spin_offs: tuple[Link, ...] = ()
    terminated: date | None = None
    liquidation_start: date | None = None
    insolvency: str | None = None  # final status of the proceeding against the company
    insolvency_filed: date | None = None

    @property
    def id(self) -> str:
        """The company's id: that of its newest register entry."""
        return self.registrations[-1].company_id

    @property
    def end(self) -> date | None:
        """The day the company was deleted (``terminated_at``), if it was."""
        return self.terminated

    @property
    def status(self) -> str:
        """``inactive`` once terminated; ``liquidation`` after a liquidator or a dissolving insolvency."""
        if self.terminated is not None:
            return "inactive"
        if self.liquidation_start is not None or self.insolvency in DISSOLVING_INSOLVENCY:
            return "liquidation"
        return "active"


def settle(
    founding: Founding,
    *,
    conversion: tuple[str, date] | None,
    links: Links,
    end: Ending,
    registrations: tuple[Registration, ...],
    court_moved: bool,
) -> Spec:
    """One company's :class:`Spec` from the decisions of every planning stage.

    A conversion (``(origin form, date)``) that does not come before the company's end, liquidation or
    insolvency filing did not happen: the company keeps the form it was founded in.
    """
    stops = [d for d in (end.terminated, end.liquidation_start, end.insolvency_filed) if d is not None]
    if conversion is not None and stops and conversion[1] >= min(stops):
        conversion = None
    origin, converted = conversion if conversion is not None else (None, None)
    index = founding.index
    founded = {f.name: getattr(founding, f.name) for f in fields(Founding) if f.name != "court"}
    return Spec(
        **founded,
        registrations=registrations,
        court_moved=court_moved,
        origin_form=origin,
        conversion_date=converted,
        profit_transfer=links.profit_transfer.get(index),
        merged_into=links.merged_into.get(index),
        acquisitions=tuple(links.acquisitions.get(index, ())),
        spin_offs=tuple(links.spin_offs.get(index, ())),
        terminated=end.terminated,
        liquidation_start=end.liquidation_start,
        insolvency=end.insolvency,
        insolvency_filed=end.insolvency_filed,
    )
