"""Fixtures of the graph and group-plot tests.

Unit tests build CompanyV1 dicts with :func:`make_company`; world tests use the bundled world
(:func:`world`, :func:`world_graph`, :func:`readme_groups`); crawl tests talk to the in-process local
register through ``regkit.Client`` with a temporary cache and register state (:func:`make_client`).
Drawing tests use matplotlib's Agg backend (set here, before any pyplot import).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import matplotlib
import pytest

matplotlib.use("Agg")

README = Path(__file__).resolve().parents[2] / "data" / "README.md"
ROW = re.compile(r"\|\s*(G\d{3})\s*\|\s*`([^`]+)`\s*\|\s*([^|]+?)\s*" + r"\|\s*(\d+)\s*" * 3 + r"\|")


@pytest.fixture(scope="session")
def world() -> Any:
    """The bundled world (``data/``), read once per session. Read-only: do not mutate it."""
    from regkit.local.world import read_world

    return read_world()


@pytest.fixture(scope="session")
def world_graph(world: Any) -> Any:
    """``from_companies`` of the whole bundled world, built once per session. Read-only: copy before
    changing it."""
    from regkit.graph import from_companies

    return from_companies(world.companies)


@pytest.fixture(scope="session")
def readme_groups() -> list[dict[str, Any]]:
    """The groups table of ``data/README.md`` (the twelve largest groups) as dicts with ``group``,
    ``organtraeger``, ``name``, ``companies``, ``with_pta`` and ``mergers`` (ints where numeric)."""
    rows = []
    for line in README.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            group, top, name, companies, pta, mergers = match.groups()
            rows.append(
                {
                    "group": group,
                    "organtraeger": top,
                    "name": name,
                    "companies": int(companies),
                    "with_pta": int(pta),
                    "mergers": int(mergers),
                }
            )
    assert len(rows) == 12, "the groups table of data/README.md changed shape"
    return rows


def _entry(**fields: Any) -> dict[str, Any]:
    entry = {
        "id": None,
        "name": "Eva Roth",
        "type": "natural_person",
        "role": "DIRECTOR",
        "start_date": "2010-01-01",
        "end_date": None,
        "authority": None,
        "natural_person": None,
    }
    entry.update(fields)
    return entry


@pytest.fixture
def make_company() -> Callable[..., dict[str, Any]]:
    """Factory for minimal CompanyV1 dicts: ``make_company(n, **members)`` has id ``DE-HRB-B1204-<n>``,
    name ``Firma <n> GmbH``, status active, no links and no representatives unless given. Helpers on
    the factory: ``.person(...)``/``.legal(...)`` make representation entries, ``.link(n, date)`` a
    link object (``merged_into``, ``profit_transfer_agreement``, ...)."""

    def make(n: int | str, **members: Any) -> dict[str, Any]:
        cid = n if isinstance(n, str) else f"DE-HRB-B1204-{n}"
        company = {
            "id": cid,
            "name": {"name": f"Firma {n} GmbH", "legal_form": "gmbh", "start_date": "2000-01-01"},
            "names": [],
            "status": "active",
            "legal_form": "gmbh",
            "incorporated_at": "2000-01-01",
            "terminated_at": None,
            "address": {"city": "Berlin"},
            "representation": [],
            "merged_into": None,
            "acquisitions": [],
            "asset_spin_offs": [],
            "profit_transfer_agreement": None,
        }
        company.update(members)
        return company

    def person(
        pid: str | None = "p-1",
        name: str = "Eva Roth",
        born: str | None = "1970-01-01",
        city: str | None = "Berlin",
        **fields: Any,
    ) -> dict[str, Any]:
        first, _, last = name.partition(" ")
        details = {"first_name": first, "last_name": last, "date_of_birth": born, "city": city}
        return _entry(id=pid, name=name, natural_person=details, **fields)

    def legal(
        lid: str | int | None, name: str = "Alpha AG", role: str = "SHAREHOLDER", **fields: Any
    ) -> dict[str, Any]:
        ident = f"DE-HRB-B1204-{lid}" if isinstance(lid, int) else lid
        return _entry(
            id=ident,
            name=name,
            type="legal_person",
            role=role,
            legal_person={"name": name, "city": "Berlin", "country": "DE"},
            **fields,
        )

    def link(n: int, registered: str = "2020-01-01", agreed: str | None = None) -> dict[str, Any]:
        return {
            "company_id": f"DE-HRB-B1204-{n}",
            "name": f"Firma {n} GmbH",
            "registration_date": registered,
            "agreement_date": agreed,
        }

    make.person, make.legal, make.link = person, legal, link  # type: ignore[attr-defined]
    return make


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """Factory for ``regkit.Client`` on the in-process local register (no key) with the cache file
    ``tmp_path/cache.sqlite`` (shared by every client it makes: a second client sees the first one's
    cache) and the register state from :func:`_isolated_env`. Keyword arguments go to ``Client``."""
    import regkit

    clients: list[Any] = []

    def make(**kwargs: Any) -> Any:
        client = regkit.Client(cache=tmp_path / "cache.sqlite", **kwargs)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


@pytest.fixture(scope="session")
def assert_same_graph() -> Callable[[Any, Any], None]:
    """``assert_same_graph(G, H)``: same class, graph attributes (the crawl report apart), nodes with
    attributes, and keyed edges with attributes (values compared with ``==`` and by type)."""
    return _assert_same_graph


def _typed(attrs: dict[str, Any]) -> dict[str, Any]:
    return {k: (type(v).__name__, v) for k, v in attrs.items()}


def _assert_same_graph(G: Any, H: Any) -> None:
    assert type(G) is type(H)
    assert {k: v for k, v in G.graph.items() if k != "crawl"} == {k: v for k, v in H.graph.items() if k != "crawl"}
    assert {n: _typed(d) for n, d in G.nodes(data=True)} == {n: _typed(d) for n, d in H.nodes(data=True)}
    left = {(u, v, k): _typed(d) for u, v, k, d in G.edges(keys=True, data=True)}
    right = {(u, v, k): _typed(d) for u, v, k, d in H.edges(keys=True, data=True)}
    assert left == right
