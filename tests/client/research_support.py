"""Expected values of the research endpoints, computed from the bundled world (never from regkit.client).

Import as ``from research_support import ...``: pytest puts a test's directory on ``sys.path`` (the ``prepend``
import mode), as ``tests/local`` does for ``local_support``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

__all__ = ["NOT_IN_REGISTER", "owners_by_company", "holdings_by_holder", "positions_by_person", "pick_group_holder"]

#: Legal forms whose shareholders the register does not list (owners need ``best_available=True``).
NOT_IN_REGISTER = frozenset({"ag", "se", "kgaa"})


def owners_by_company(world: Any) -> dict[str, list[dict[str, Any]]]:
    """The current shareholdings of each company (rows of ``shareholdings.jsonl.gz`` without ``end``)."""
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in world.shareholdings:
        if row["end"] is None:
            out[row["company_id"]].append(row)
    return dict(out)


def holdings_by_holder(world: Any) -> dict[str, list[dict[str, Any]]]:
    """Every shareholding (current and past) of each holder id."""
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in world.shareholdings:
        if row["holder_id"]:
            out[row["holder_id"]].append(row)
    return dict(out)


def positions_by_person(world: Any) -> dict[str, list[tuple[str, str, str, str | None]]]:
    """Each person's non-shareholder representation entries as ``(company_id, role, start_date, end_date)``."""
    out: dict[str, list[tuple[str, str, str, str | None]]] = defaultdict(list)
    for company in world.companies.values():
        for entry in company["representation"]:
            if entry["type"] == "natural_person" and entry["id"] and entry["role"] != "SHAREHOLDER":
                out[entry["id"]].append((company["id"], entry["role"], entry["start_date"], entry["end_date"]))
    return dict(out)


def pick_group_holder(world: Any) -> tuple[str, str]:
    """A legal-person holder with several current holdings, and one company it holds that is a GmbH with
    at least two current owners: ``(holder_id, held_company_id)``."""
    owners = owners_by_company(world)
    holdings = holdings_by_holder(world)
    for holder, rows in sorted(holdings.items()):
        if rows[0]["holder_type"] != "legal_person" or sum(r["end"] is None for r in rows) < 2:
            continue
        for row in rows:
            company = world.companies[row["company_id"]]
            if row["end"] is None and company["legal_form"] == "gmbh" and len(owners[company["id"]]) >= 2:
                return holder, company["id"]
    raise AssertionError("the world has a holding company with a GmbH of several owners")
