"""Mergers, spin-offs and profit-transfer agreements as a relation frame (``source`` → ``target``).

Directions and relation names are those of :mod:`regkit.graph` (the same for both sides of a mirrored merger,
so ``links(a)`` and ``links(b)`` of the two companies give the same edge and
``drop_duplicates(["source", "target", "relation", "registration_date"])`` merges them):

==================  ================================  ==================================================
relation            source → target                   listed in (``member``)
==================  ================================  ==================================================
``merger``          absorbed company → acquirer       ``merged_into`` (absorbed), ``acquisitions`` (acquirer)
``spin_off``        transferor → recipient of assets  ``asset_spin_offs`` (transferor)
``profit_transfer`` Organgesellschaft → Organträger   ``profit_transfer_agreement`` (Organgesellschaft)
==================  ================================  ==================================================

Transactions: "entries that share an agreement_date belong to the same transaction". ``transaction`` is
``"<hub>:<agreement_date>"`` where the hub is the company at the centre of the contract — the acquirer of a
merger, the transferor of a spin-off, the Organgesellschaft of an agreement. So all links one record lists with
one agreement date share a transaction, and the absorbed company's ``merged_into`` carries the same key as the
acquirer's ``acquisitions`` entry. A link without ``agreement_date`` (the register cites no contract) is
grouped with nothing: its key is ``"<source>><target>:<relation>:<registration_date>"``, one transaction of
its own — never a null that ``groupby`` would silently drop.

Validity, as in every relation frame: ``valid_from`` is the registration date (the register entry makes a
merger, spin-off or agreement effective), ``valid_to`` is NaT (the interface lists only current agreements
and a merger is not undone).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from ._columns import DATE, STR, Cat, build_frame, rows_to_columns
from ._input import company_list, required

__all__ = ["RELATIONS", "MEMBERS", "links", "link_rows"]

RELATIONS = ("merger", "spin_off", "profit_transfer")
MEMBERS = ("merged_into", "acquisitions", "asset_spin_offs", "profit_transfer_agreement")

SPEC = [
    ("company_id", STR),
    ("source", STR),
    ("source_name", STR),
    ("target", STR),
    ("target_name", STR),
    ("relation", Cat(RELATIONS)),
    ("member", Cat(MEMBERS)),
    ("valid_from", DATE),
    ("valid_to", DATE),
    ("registration_date", DATE),
    ("agreement_date", DATE),
    ("transaction", STR),
]


def _row(cid: str, own: str | None, entry: Mapping[str, Any], member: str) -> tuple:
    other, other_name = entry["company_id"], entry["name"]
    if member in ("merged_into", "asset_spin_offs", "profit_transfer_agreement"):
        source, source_name, target, target_name = cid, own, other, other_name
    else:  # acquisitions: the other company was merged into this one
        source, source_name, target, target_name = other, other_name, cid, own
    relation = {
        "merged_into": "merger",
        "acquisitions": "merger",
        "asset_spin_offs": "spin_off",
        "profit_transfer_agreement": "profit_transfer",
    }[member]
    hub = target if relation == "merger" else source
    agreed, registered = entry["agreement_date"], entry["registration_date"]
    transaction = f"{hub}:{agreed}" if agreed is not None else f"{source}>{target}:{relation}:{registered}"
    return (
        cid,
        source,
        source_name,
        target,
        target_name,
        relation,
        member,
        registered,
        None,
        registered,
        agreed,
        transaction,
    )


def link_rows(company: Mapping[str, Any]) -> list[tuple]:
    """The rows of one company, in the order merged_into, acquisitions, spin-offs, agreement."""
    cid = company["id"]
    own = (company.get("name") or {}).get("name")
    rows = []
    if company["merged_into"] is not None:
        rows.append(_row(cid, own, company["merged_into"], "merged_into"))
    rows.extend(_row(cid, own, e, "acquisitions") for e in company["acquisitions"])
    rows.extend(_row(cid, own, e, "asset_spin_offs") for e in company["asset_spin_offs"])
    if company["profit_transfer_agreement"] is not None:
        rows.append(_row(cid, own, company["profit_transfer_agreement"], "profit_transfer_agreement"))
    return rows


def links(company: Any) -> pd.DataFrame:
    """Restructuring links and the profit-transfer agreement as a relation frame.

    Parameters
    ----------
    company : record, dict, or many of them
        A company or an iterable / mapping of companies.

    Returns
    -------
    pandas.DataFrame
        One row per link a record lists (directions and transactions: see :mod:`regkit.frames.relations`); feeds
        ``networkx.from_pandas_edgelist(frame, "source", "target", edge_attr=True)``.

        =================  ==============  ======================================================
        company_id         str             the company whose record lists the link
        source             str             company id
        source_name        str             its name (the interface's ``name``, or the record's own)
        target             str             company id
        target_name        str
        relation           category        merger / spin_off / profit_transfer
        member             category        the interface member that lists it
        valid_from         datetime64[us]  in force from: the registration date
        valid_to           datetime64[us]  NaT (current)
        registration_date  datetime64[us]  when the register entered it
        agreement_date     datetime64[us]  the underlying contract's date (NaT: none cited)
        transaction        str             links with one hub and agreement date share it
        =================  ==============  ======================================================

    Examples
    --------
    >>> acquirer = {"id": "DE-HRB-M1301-1", "names": [], "name": {"name": "Holding AG"},
    ...     "merged_into": None, "asset_spin_offs": [], "profit_transfer_agreement": None,
    ...     "acquisitions": [{"company_id": f"DE-HRB-M1301-{n}", "name": f"Tochter {n} GmbH",
    ...                       "registration_date": "2023-11-21", "agreement_date": "2023-09-23"} for n in (2, 3)]}
    >>> links(acquirer)[["source", "target", "relation", "transaction"]]
               source          target relation                transaction
    0  DE-HRB-M1301-2  DE-HRB-M1301-1   merger  DE-HRB-M1301-1:2023-09-23
    1  DE-HRB-M1301-3  DE-HRB-M1301-1   merger  DE-HRB-M1301-1:2023-09-23
    """
    rows: list[tuple] = []
    check = required("company")
    with check:
        for record in company_list(company):
            check.company = record["id"]
            rows.extend(link_rows(record))
    return build_frame(rows_to_columns(rows, SPEC), SPEC)
