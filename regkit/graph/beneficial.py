"""Ownership over time from shareholder lists, beneficial owners from the graph, and their cross-check.

:func:`add_ownership_history` dates a company's ``ownership`` edges by its filed shareholder lists (the answer of
``GET /v1/company/{id}/owners/historical``): an owner's edge runs from the first list that shows their stake to
the first later list that no longer shows it or shows another stake, so :func:`regkit.graph.as_of` shows who
held what on any day. :func:`ubos` follows the ownership edges in force on a day upwards and multiplies the shares
along each chain, summed over chains (§ 3 GwG): a natural person with **more than 25 %** is a beneficial owner —
the rule of the service's ``GET …/ubo``; a chain through a partner's stake (``limited_partner``,
``general_partner``) gives only the most the person could hold. :func:`ubo_cross_check` sets the graph's
answer beside the service's and the Transparenzregister extract's, one row per person, each difference flagged.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

import networkx as nx

from ._input import as_dict
from .errors import check_node
from .persons import is_company_id, legal_key, name_key
from .schema import COMPANY, LEGAL_PERSON, NATURAL_PERSON, OWNERSHIP, to_date
from .timeline import in_force

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["PARTNER_RELATIONS", "UBO_THRESHOLD", "add_ownership_history", "effective_shares", "ubo_cross_check", "ubos"]

UBO_THRESHOLD = 0.25
"""A beneficial owner holds *more than* this fraction of the capital (§ 3 (2) GwG); exactly 25 % is not."""
PARTNER_RELATIONS = frozenset({"limited_partner", "general_partner"})
"""Holdings through which a share is not fixed: a chain through one gives only a maximum."""
_EPSILON = 1e-9
_MAX_DEPTH = 12
#: Tolerances (percentage points) of the comparison: the service answers four decimals, the extract two.
_SERVICE_TOLERANCE = 1e-3
_EXTRACT_TOLERANCE = 0.006


def _owner_node(G: nx.MultiDiGraph, owner: Mapping[str, Any]) -> str:
    """The node of an ownership-history owner (made if it is not in ``G``; an existing node's gaps filled)."""
    oid, name, kind = owner.get("id") or None, owner.get("name"), owner.get("entity_type")
    if kind == "natural_person":
        node = oid or f"person:{name_key(None, None, name)}"
        attrs = {"kind": NATURAL_PERSON, "name": name, "first_name": None, "last_name": None}
        attrs |= {"date_of_birth": None, "city": None, "person_id": oid}
    elif is_company_id(oid):
        node = oid
        attrs = {"kind": COMPANY, "name": name, "legal_form": None, "status": None, "city": None}
        attrs |= {"incorporated_at": None, "terminated_at": None, "removed_after": None, "fetched": False}
    else:
        country = owner.get("country")
        node = oid or legal_key({"name": name, "legal_person": {"name": name, "country": country}})
        attrs = {"kind": LEGAL_PERSON, "name": name, "city": None, "country": country, "person_id": oid}
    if node in G:
        known = G.nodes[node]
        known.update({k: v for k, v in attrs.items() if known.get(k) is None and v is not None})
    else:
        G.add_node(node, **attrs)
    return node


def _runs(history: list[Mapping[str, Any]], dates: list[str]) -> Iterator[tuple[str, str | None, Mapping[str, Any]]]:
    """``(from, to, entry)`` for each run of lists showing the same stake; ``to`` is the next list's date."""
    by_date = {str(h["document_date"])[:10]: h for h in history}
    start: str | None = None
    current: Mapping[str, Any] | None = None
    for day in dates:
        entry = by_date.get(day)
        same = (
            entry is not None
            and current is not None
            and (entry["nominal_shares"], entry["percentage_shares"])
            == (current["nominal_shares"], current["percentage_shares"])
        )
        if same:
            continue
        if current is not None and start is not None:
            yield start, day, current
        start, current = (day, entry) if entry is not None else (None, None)
    if current is not None and start is not None:
        yield start, None, current


def add_ownership_history(G: nx.MultiDiGraph, company_id: str, answer: Any) -> None:
    """Replace the ``ownership`` edges into ``company_id`` by edges dated from its shareholder lists.

    Parameters
    ----------
    G : networkx.MultiDiGraph
        A group graph (:func:`regkit.graph.from_companies`); changed in place. The company's node is made if it
        is not there.
    company_id : str
        The company the answer is about.
    answer : record or dict
        ``client.get_ownership_history(company_id)`` or its JSON (``{"owners": [...]}``).

    Notes
    -----
    One edge per owner and run of consecutive lists showing the same stake (nominal amount and percentage):
    ``valid_from`` is the first list's date, ``valid_to`` the date of the next list that no longer shows that
    stake (``None`` when the latest list shows it). ``share`` is the list's percentage as a fraction,
    ``nominal_share`` its nominal amount in EUR, ``relation_type`` ``shareholder`` (a company that files lists
    is a GmbH, UG or gGmbH). Owners are nodes as elsewhere: a person by their UUID, a company by its id,
    another legal person by its ``legal:`` key. Ownership edges the graph had into the company (from holdings)
    are removed: the lists are the register's record of who held what when.

    Examples
    --------
    >>> from regkit.graph import as_of, from_companies
    >>> G = from_companies([])
    >>> answer = {"owners": [
    ...     {"id": "p-1", "name": "Ida Roth", "entity_type": "natural_person", "ownership_history": [
    ...         {"document_id": "d1", "document_date": "2010-01-04", "nominal_shares": 2500000, "percentage_shares": 100.0},
    ...         {"document_id": "d2", "document_date": "2015-06-30", "nominal_shares": 1250000, "percentage_shares": 50.0}]},
    ...     {"id": "p-2", "name": "Eva Lenz", "entity_type": "natural_person", "ownership_history": [
    ...         {"document_id": "d2", "document_date": "2015-06-30", "nominal_shares": 1250000, "percentage_shares": 50.0}]}]}
    >>> add_ownership_history(G, "DE-HRB-B1204-1", answer)
    >>> [(u, d["share"]) for u, _, d in as_of(G, "2012-01-01").in_edges("DE-HRB-B1204-1", data=True)]
    [('p-1', 1.0)]
    >>> sorted((u, d["share"]) for u, _, d in as_of(G, "2020-01-01").in_edges("DE-HRB-B1204-1", data=True))
    [('p-1', 0.5), ('p-2', 0.5)]
    """
    raw = as_dict(answer)
    if not isinstance(raw.get("owners"), list):
        raise TypeError(f"expected an ownership-history answer with a list 'owners', got keys {sorted(raw)[:8]}")
    if company_id not in G:
        G.add_node(company_id, kind=COMPANY, name=None, legal_form=None, status=None, city=None)
        G.nodes[company_id].update(incorporated_at=None, terminated_at=None, removed_after=None, fetched=False)
    old = [(u, k) for u, _, k, d in G.in_edges(company_id, keys=True, data=True) if d.get("relation") == OWNERSHIP]
    G.remove_edges_from([(u, company_id, k) for u, k in old])
    owners = raw["owners"]
    dates = sorted({str(h["document_date"])[:10] for o in owners for h in o.get("ownership_history") or ()})
    for owner in owners:
        node = _owner_node(G, owner)
        for start, end, entry in _runs(list(owner.get("ownership_history") or ()), dates):
            G.add_edge(
                node,
                company_id,
                key=f"{OWNERSHIP}/shareholder/{start}",
                relation=OWNERSHIP,
                role=None,
                valid_from=to_date(start),
                valid_to=to_date(end),
                registration_date=None,
                agreement_date=None,
                authority=None,
                share=round(float(entry["percentage_shares"]) / 100, 12),
                nominal_share=int(entry["nominal_shares"]) / 100,
                relation_type="shareholder",
            )


def effective_shares(G: nx.MultiDiGraph, company_id: str, date: Any = None) -> dict[str, tuple[float, bool]]:
    """Every natural person's effective share of ``company_id`` on a day, from the graph's ownership edges.

    Parameters
    ----------
    G : networkx.MultiDiGraph
        A group graph with ``ownership`` edges (holdings, or :func:`add_ownership_history`).
    company_id : str
        The company.
    date : date-like, optional
        The day (default: the current edges, ``valid_to`` ``None``). A ``datetime.date``, ``datetime``,
        ``Timestamp`` or ``datetime64``, ISO ``"YYYY-MM-DD"`` or German ``"DD.MM.YYYY"`` (day first); any other text
        is a ``ValidationError``.

    Returns
    -------
    dict
        Person node → ``(share, fixed)``: the share a fraction, the product of the shares along each chain of
        ownership edges in force, summed over the chains (at most 1); ``fixed`` false when a chain runs through
        a partner's stake (:data:`PARTNER_RELATIONS`), so the share is the most the person could hold. Edges of
        unknown share are not followed; chains never revisit a company.

    Raises
    ------
    regkit.graph.NotInGraphError
        When ``company_id`` is not in ``G`` (also a ``networkx.NodeNotFound``); the message gives the crawl.
    """
    check_node(G, company_id)
    day = to_date(date)
    totals: dict[str, float] = defaultdict(float)
    unfixed: set[str] = set()
    stack: list[tuple[str, float, frozenset[str], bool]] = [(company_id, 1.0, frozenset({company_id}), True)]
    while stack:
        held, factor, path, fixed = stack.pop()
        if held not in G:
            continue
        for holder, _, attrs in G.in_edges(held, data=True):
            if attrs.get("relation") != OWNERSHIP or attrs.get("share") is None or not in_force(attrs, day):
                continue
            share = factor * float(attrs["share"])
            chain_fixed = fixed and attrs.get("relation_type") not in PARTNER_RELATIONS
            if share <= 0:
                continue
            if G.nodes[holder].get("kind") == NATURAL_PERSON:
                totals[holder] += share
                if not chain_fixed:
                    unfixed.add(holder)
            elif holder not in path and len(path) < _MAX_DEPTH and share > _EPSILON:
                stack.append((holder, share, path | {holder}, chain_fixed))
    return {person: (min(total, 1.0), person not in unfixed) for person, total in totals.items()}


_UBO_COLUMNS = ["company_id", "person", "name", "date_of_birth", "share", "percentage", "fixed"]


def ubos(G: nx.MultiDiGraph, company_id: str, date: Any = None) -> pd.DataFrame:
    """The beneficial owners of ``company_id`` the graph shows: natural persons holding more than 25 %.

    Parameters
    ----------
    G : networkx.MultiDiGraph
        A group graph with ``ownership`` edges.
    company_id : str
        The company.
    date : date-like, optional
        The day (default: the current edges). A ``datetime.date``, ``datetime``, ``Timestamp`` or ``datetime64``,
        ISO ``"YYYY-MM-DD"`` or German ``"DD.MM.YYYY"`` (day first); any other text is a ``ValidationError``.

    Returns
    -------
    pandas.DataFrame
        One row per beneficial owner, largest share first (see :func:`effective_shares`):

        =============  ==============  ===========================================================
        company_id     str             the company
        person         str             the person's node (their UUID where the register gives one)
        name           str             the node's name; NaN if the graph knows none
        date_of_birth  datetime64[us]  NaT where unknown
        share          Float64         effective share, a **fraction** in [0, 1] as in every regkit
                                       frame (a maximum where not ``fixed``), to 12 decimal places
        percentage     Float64         the same in percent, to four decimals as the service gives it
        fixed          bool            False: a chain runs through a partner's stake
        =============  ==============  ===========================================================

        No row when nobody holds more than 25 % (the service then names the directors as fictitious
        owners; the graph names no one).

    Raises
    ------
    regkit.graph.NotInGraphError
        When ``company_id`` is not in ``G`` (also a ``networkx.NodeNotFound``); the message gives the crawl.
    """
    shares = effective_shares(G, company_id, date)
    rows = sorted(
        (
            (company_id, person, G.nodes[person].get("name"), G.nodes[person].get("date_of_birth"), share, fixed)
            for person, (share, fixed) in shares.items()
            if share > UBO_THRESHOLD + _EPSILON
        ),
        key=lambda r: (-r[4], r[2] or "", r[1]),
    )
    return _frame(
        _UBO_COLUMNS,
        [(c, p, n, d, round(s, 12), round(s * 100, 4), f) for c, p, n, d, s, f in rows],
        {"share": "Float64", "percentage": "Float64", "fixed": "bool"},
    )


def _frame(columns: list[str], rows: list[tuple[Any, ...]], numeric: Mapping[str, str]) -> pd.DataFrame:
    import pandas as pd  # on first use: importing regkit.graph stays free of pandas

    data = {name: list(values) for name, values in zip(columns, zip(*rows))} if rows else {c: [] for c in columns}
    frame = pd.DataFrame(data, columns=columns)
    for name in columns:
        if name in numeric:
            frame[name] = frame[name].astype(numeric[name])
        elif name.endswith("date_of_birth"):
            frame[name] = pd.to_datetime(frame[name]).astype("datetime64[us]")
        else:
            frame[name] = frame[name].astype("str").where(frame[name].notna())
    return frame


def _service_rows(answer: Any) -> list[dict[str, Any]]:
    """The real beneficial owners of a UBO answer (fictitious ones, with no share, left out)."""
    raw = as_dict(answer)
    if not isinstance(raw.get("ubos"), list):
        raise TypeError(f"expected a UBO answer with a list 'ubos', got keys {sorted(raw)[:8]}")
    out = []
    for ubo in raw["ubos"]:
        share = ubo.get("percentage_share")
        share = ubo.get("max_percentage_share") if share is None else share
        if share is None:
            continue
        person = ubo.get("natural_person") or {}
        out.append({"id": ubo.get("id"), "name": ubo["name"], "dob": person.get("date_of_birth"), "pct": share})
    return out


def _extract_rows(extract: Any) -> list[dict[str, Any]]:
    """The beneficial owners by ownership of a Transparenzregister extract (or its ``report``)."""
    raw = as_dict(extract)
    report = raw.get("report", raw) if "ubos" not in raw else raw
    if report is None:
        raise ValueError("the extract has no report yet (still processing, or failed): wait for it to complete")
    if not isinstance(report.get("ubos"), list):
        raise TypeError(f"expected a Transparenzregister extract or its report, got keys {sorted(raw)[:8]}")
    out = []
    for ubo in report["ubos"]:
        interest = ubo.get("interest") or {}
        if interest.get("type") == "fictional" or interest.get("percentage") is None:
            continue
        person = ubo.get("natural_person") or {}
        name = person.get("full_name") or " ".join(p for p in (person.get("first_name"), person.get("last_name")) if p)
        out.append({"id": None, "name": name, "dob": person.get("date_of_birth"), "pct": interest["percentage"]})
    return out


_CROSS_COLUMNS = [
    "company_id",
    "person_id",
    "name",
    "date_of_birth",
    "graph_percentage",
    "service_percentage",
    "extract_percentage",
    "service_differs",
    "extract_differs",
    "differs",
]


def ubo_cross_check(G: nx.MultiDiGraph, company_id: str, service: Any, extract: Any) -> pd.DataFrame:
    """The beneficial owners of ``company_id`` by the graph, the service and the Transparenzregister, side by side.

    Parameters
    ----------
    G : networkx.MultiDiGraph
        A group graph with the current ``ownership`` edges of the company's chains (holdings of its holders,
        or :func:`add_ownership_history`); see :func:`ubos`.
    company_id : str
        The company.
    service : record or dict
        ``client.get_ubos(company_id)`` or its JSON.
    extract : record or dict
        A completed Transparenzregister extract of the company (``client.get_extract(...)``) or its ``report``.

    Returns
    -------
    pandas.DataFrame
        One row per natural person that any of the three names as a beneficial owner by their share
        (fictitious owners — directors standing in when nobody holds more than 25 % — are no such owner and
        are left out), the graph's owners first:

        ==================  ==============  ========================================================
        company_id          str             the company
        person_id           str             the person's UUID (NaN for a person only the extract
                                            names: the extract gives no id)
        name                str             as the graph, else the service, else the extract names them
        date_of_birth       datetime64[us]  where a source gives it
        graph_percentage    Float64         :func:`ubos`; <NA>: not a beneficial owner in the graph
        service_percentage  Float64         the service's ``percentage_share`` (or its maximum)
        extract_percentage  Float64         the extract's interest percentage
        service_differs     bool            the service disagrees with the graph (names the person
                                            and the graph does not, or vice versa, or another share)
        extract_differs     bool            the extract disagrees with the graph
        differs             bool            either
        ==================  ==============  ========================================================

        Shares agree within the sources' rounding (the service gives four decimals, the extract two).
        The extract's persons are matched by name (folded as :func:`regkit.frames.person_key` folds it) and
        date of birth, where both sides know it.

    Raises
    ------
    regkit.graph.NotInGraphError
        When ``company_id`` is not in ``G`` (also a ``networkx.NodeNotFound``); the message gives the crawl.
    """
    import pandas as pd

    graph = ubos(G, company_id)
    rows: list[dict[str, Any]] = []
    by_id: dict[str, dict[str, Any]] = {}
    for person, name, born, pct in zip(graph["person"], graph["name"], graph["date_of_birth"], graph["percentage"]):
        row: dict[str, Any] = {
            "person_id": person,
            "name": None if pd.isna(name) else name,
            "dob": born,
            "graph": float(pct),
        }
        rows.append(row)
        by_id[person] = row
    for entry in _service_rows(service):
        found = by_id.get(entry["id"] or "")
        if found is None:
            row = {"person_id": entry["id"], "name": entry["name"], "dob": entry["dob"]}
            rows.append(row)
            if entry["id"]:
                by_id[entry["id"]] = row
        else:
            row = found
        row["service"] = float(entry["pct"])
        row["name"] = row.get("name") or entry["name"]
        row["dob"] = row["dob"] if row.get("dob") is not None and not pd.isna(row["dob"]) else entry["dob"]
        row["service_name"] = entry["name"]
    for entry in _extract_rows(extract):
        match = next((row for row in rows if "extract" not in row and _same_person(row, entry)), None)
        if match is None:
            match = {"person_id": None, "name": entry["name"], "dob": entry["dob"]}
            rows.append(match)
        match["extract"] = float(entry["pct"])
    out = []
    for row in rows:
        g, s, e = row.get("graph"), row.get("service"), row.get("extract")
        service_differs = _differs(g, s, _SERVICE_TOLERANCE)
        extract_differs = _differs(g, e, _EXTRACT_TOLERANCE)
        dob = row.get("dob")
        dob = None if dob is None or (not isinstance(dob, str) and pd.isna(dob)) else str(dob)[:10]
        out.append(
            (company_id, row["person_id"], row["name"], dob, g, s, e, service_differs, extract_differs)
            + (service_differs or extract_differs,)
        )
    numeric = {"graph_percentage": "Float64", "service_percentage": "Float64", "extract_percentage": "Float64"}
    numeric |= {"service_differs": "bool", "extract_differs": "bool", "differs": "bool"}
    return _frame(_CROSS_COLUMNS, out, numeric)


def _differs(graph: float | None, other: float | None, tolerance: float) -> bool:
    if graph is None or other is None:
        return (graph is None) != (other is None)
    return abs(graph - other) > tolerance


def _same_person(row: Mapping[str, Any], entry: Mapping[str, Any]) -> bool:
    import pandas as pd

    names = {name_key(None, None, n) for n in (row.get("name"), row.get("service_name")) if n}
    if name_key(None, None, entry["name"]) not in names:
        return False
    mine, theirs = row.get("dob"), entry.get("dob")
    if mine is None or theirs is None or (not isinstance(mine, str) and pd.isna(mine)):
        return True
    return str(mine)[:10] == str(theirs)[:10]
