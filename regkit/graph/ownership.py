"""Holdings and person answers → ownership edges and person nodes of a group graph (for ``from_companies``).

A *holdings answer* is what ``GET /v1/company/{id}/holdings`` or ``GET /v1/person/{id}/holdings``
returns (``client.get_holdings(id)``, ``client.get_person_holdings(id)``, or its ``.raw``): the holder
(``company_id`` or ``person_id``) and its ``holdings``, current and past. Each holding is one
``ownership`` edge, holder → held company, with the holding's ``start`` / ``end`` as ``valid_from`` /
``valid_to`` and its share as a fraction (the holdings endpoint's own scale; a value above 1 cannot be
a fraction and is refused). A *person answer* (``GET /v1/person/{id}``) gives the person's node and a
``representation`` edge per management position, keyed as the company's own entry, so a position the
company's record lists too is one edge.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ._input import as_dict
from .persons import is_company_id
from .schema import NATURAL_PERSON, OWNERSHIP, REPRESENTATION

if TYPE_CHECKING:
    from .builder import GraphBuilder

__all__ = ["add_holdings", "add_person", "held_companies", "holder_id", "share_fraction"]


def holder_id(answer: Mapping[str, Any]) -> str:
    """The holder of a holdings answer: its ``company_id`` or ``person_id``.

    Raises
    ------
    TypeError
        When the answer names neither.
    """
    holder = answer.get("company_id") or answer.get("person_id")
    if not isinstance(holder, str) or not isinstance(answer.get("holdings"), list):
        raise TypeError(
            f"expected a holdings answer (company_id or person_id, and holdings), got keys {sorted(answer)}"
        )
    return holder


def held_companies(answer: Any) -> list[str]:
    """The company ids a holdings answer lists, current and past, in order, once each."""
    raw = as_dict(answer)
    return list(dict.fromkeys(h["company_id"] for h in raw.get("holdings") or () if h.get("company_id")))


def share_fraction(value: Any, where: str = "holding") -> float | None:
    """A holdings ``percentage_share`` as a float fraction (``None`` stays ``None``).

    Raises
    ------
    ValueError
        For a value outside 0..1: the holdings endpoint reports fractions (0.5 is 50 %), so a larger
        value is a percent that was not normalised.

    Examples
    --------
    >>> share_fraction(0.84), share_fraction(None)
    (0.84, None)
    """
    if value is None:
        return None
    share = float(value)
    if not 0.0 <= share <= 1.0:
        raise ValueError(
            f"{where}: percentage_share {value!r} is not a fraction between 0 and 1 (holdings report "
            "fractions, 0.5 = 50 %; divide percent values of the owners endpoint by 100)"
        )
    return share


def _holdings(raw: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    for holding in raw.get("holdings") or ():
        if isinstance(holding.get("company_id"), str):
            yield holding


def add_holdings(builder: GraphBuilder, answer: Any) -> None:
    """One ``ownership`` edge per holding of ``answer`` (the holder's node made if it is not there)."""
    raw = as_dict(answer)
    holder = holder_id(raw)
    if holder not in builder.nodes:
        if is_company_id(holder):
            builder.stub(holder, None)
        else:
            builder.node(holder, _person_attrs({"id": holder}, builder))
    dates = builder.dates
    for holding in _holdings(raw):
        cid = holding["company_id"]
        builder.stub(cid, holding.get("name"))
        start, kind = holding.get("start"), holding.get("relation_type")
        nominal = holding.get("nominal_share")
        attrs = {
            "relation": OWNERSHIP,
            "role": None,
            "valid_from": dates[start],
            "valid_to": dates[holding.get("end")],
            "registration_date": None,
            "agreement_date": None,
            "authority": None,
            "share": share_fraction(holding.get("percentage_share"), f"holding {holder} → {cid}"),
            "nominal_share": None if nominal is None else float(nominal),
            "relation_type": kind,
        }
        builder.edge(holder, cid, f"{OWNERSHIP}/{kind or ''}/{start or ''}", attrs)


def _person_attrs(person: Mapping[str, Any], builder: GraphBuilder) -> dict[str, Any]:
    first, last = person.get("first_name"), person.get("last_name")
    name = " ".join(part for part in (first, last) if part) or None
    return {
        "kind": NATURAL_PERSON,
        "name": name,
        "first_name": first,
        "last_name": last,
        "date_of_birth": builder.dates[person.get("date_of_birth")],
        "city": person.get("city"),
        "person_id": person.get("id"),
    }


def add_person(builder: GraphBuilder, answer: Any, with_positions: bool) -> None:
    """The person's node (gaps of an existing node filled) and, with ``with_positions``, a
    ``representation`` edge per management position."""
    raw = as_dict(answer)
    pid = raw.get("id")
    if not isinstance(pid, str):
        raise TypeError(f"expected a person answer with a string 'id', got keys {sorted(raw)[:6]}")
    attrs = _person_attrs(raw, builder)
    old = builder.nodes.get(pid)
    if old is None:
        builder.node(pid, attrs)
    else:
        old.update({name: value for name, value in attrs.items() if old.get(name) is None})
    if not with_positions:
        return
    dates = builder.dates
    for position in raw.get("management_positions") or ():
        cid, role, start = position.get("register_id"), position.get("role"), position.get("start_date")
        if not isinstance(cid, str):
            continue
        builder.stub(cid, position.get("company_name"))
        edge = {
            "relation": REPRESENTATION,
            "role": role,
            "valid_from": dates[start],
            "valid_to": dates[position.get("end_date")],
            "registration_date": None,
            "agreement_date": None,
            "authority": None,
        }
        builder.edge(pid, cid, f"{REPRESENTATION}/{role}/{start or ''}", edge, mirrored=True)
