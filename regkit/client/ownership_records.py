"""What ``Client.get_ubos`` and ``Client.get_ownership_history`` return: thin records around the interface's JSON.

Like the other records (:class:`~regkit.client.records.Record`): ``.raw`` is the answer as sent, ``.meta`` how it
was obtained, members are attributes and items.  Shares are in percent as the interface sends them (5.36 means
5.36 %); nominal amounts of the ownership history are integer EUR cents.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .frame_methods import OwnershipHistoryFrames, UbosFrames
from .records import Record, RecordMeta

__all__ = ["UbosRecord", "OwnershipHistoryRecord"]


class UbosRecord(UbosFrames, Record):
    """A company's beneficial owners (``client.get_ubos``): ``company_id`` and ``ubos``; iterating yields them.

    A beneficial owner holds more than 25 % effectively (§ 3 GwG): ``percentage_share`` in percent, or, held
    through a partnership, only ``max_percentage_share``.  With none, the legal representatives stand in as
    fictitious beneficial owners with both shares null (:attr:`fictitious`).
    """

    kind = "ubos"

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """Iterate over the beneficial owners."""
        return iter(self.raw.get("ubos", []))

    def __len__(self) -> int:
        return len(self.raw.get("ubos", []))

    @property
    def fictitious(self) -> bool:
        """Whether the list holds fictitious beneficial owners (legal representatives: no share known)."""
        return len(self) > 0 and all(
            u.get("percentage_share") is None and u.get("max_percentage_share") is None for u in self
        )

    def _label(self) -> str:
        kind = "fictitious beneficial owner(s)" if self.fictitious else "beneficial owner(s)"
        return f"{self.raw.get('company_id', '')}: {len(self)} {kind}"


class OwnershipHistoryRecord(OwnershipHistoryFrames, Record):
    """How a company's owners changed (``client.get_ownership_history``): ``owners``, each with ``status``
    (``active`` or ``removed``), ``first_appearance``, ``last_appearance`` and one ``ownership_history`` entry
    per filed shareholder list showing them (``document_id``, ``document_date``, ``nominal_shares`` in EUR
    cents, ``percentage_shares``); iterating yields the owners.  :attr:`company_id` is the company asked for
    (the answer itself does not name it).
    """

    kind = "ownership_history"

    def __init__(self, raw: Mapping[str, Any], meta: RecordMeta | None = None, *, company_id: str = "") -> None:
        super().__init__(raw, meta)
        self.company_id = company_id

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """Iterate over the owners."""
        return iter(self.raw.get("owners", []))

    def __len__(self) -> int:
        return len(self.raw.get("owners", []))

    @property
    def active(self) -> list[dict[str, Any]]:
        """The owners of the latest shareholder list (``status`` ``active``)."""
        return [o for o in self if o.get("status") == "active"]

    @property
    def document_ids(self) -> list[str]:
        """The shareholder lists the history comes from, by date (oldest first)."""
        dated = {(h["document_date"], h["document_id"]) for o in self for h in o.get("ownership_history", [])}
        return [document_id for _, document_id in sorted(dated)]

    def _label(self) -> str:
        return (
            f"{self.company_id}: {len(self.active)} active, {len(self) - len(self.active)} removed owner(s) "
            f"across {len(self.document_ids)} shareholder list(s)"
        )
