"""Long queries through the client: a full legal name is one query, and past the limit nothing is sent.

The client checks a query against the interface's limits (``MAX_QUERY_TERMS`` search terms, ``MAX_QUERY_LENGTH``
characters) before it sends anything, as the register does on receipt; the limits are well above the longest real
names, so a full legal name of the committed OffeneRegister sample finds its company over real HTTP.
"""

from __future__ import annotations

import bz2
import json
from pathlib import Path
from typing import Any

import pytest

from regkit.client import ValidationError, parse_company_id
from regkit.local.search.query import query_terms
from regkit.local.world.offeneregister import import_offeneregister, sample_file
from regkit.schema import interface as api
from regkit.schema.research import AUTOCOMPLETE_MAX_LENGTH

#: "Friedr. Max Haakh Zweigniederlassung Heilbronn der Firma Emesco Mettenheimer u. Simon-Collischonn Gesellschaft
#: mit beschränkter Haftung und Co. Kommanditgesellschaft": 19 search terms, a current name of the sample.
HAAKH = "Friedr. Max Haakh"


def _id(record: dict[str, Any]) -> str:
    attributes = record["all_attributes"]
    suffix = attributes.get("_registerNummerSuffix", "")
    return parse_company_id(
        f"{attributes['registrar']} {attributes['_registerArt']} {attributes['_registerNummer']} {suffix}".strip()
    )


@pytest.fixture(scope="module")
def haakh() -> tuple[str, str]:
    """``(company id, current name)`` of the sample's company whose name starts with :data:`HAAKH`."""
    with bz2.open(sample_file(), "rt", encoding="utf-8") as handle:
        record = next(r for r in map(json.loads, handle) if r["name"].startswith(HAAKH))
    return _id(record), record["name"]


@pytest.fixture
def real(make_local: Any, tmp_path: Path) -> Any:
    """The imported sample served over loopback; ``real.client()`` is a client on it (real HTTP)."""
    world = import_offeneregister(sample_file(), tmp_path / "world").directory
    return make_local("loopback", data_dir=world)


@pytest.fixture
def client(inprocess: Any) -> Any:
    """A client on a fresh in-process register; ``client.sent()`` counts requests that reached it."""
    made = inprocess.client()
    made.sent = lambda: len(inprocess.counter.counted)
    return made


@pytest.mark.slow
def test_a_full_legal_name_finds_its_company(real: Any, haakh: tuple[str, str]) -> None:
    company_id, name = haakh
    assert len(query_terms(name)) == 19
    client = real.client()
    found = client.search_companies(name).to_dataframe()
    assert list(found["company_id"]) == [company_id] and found["name"].iloc[0] == name
    assert company_id in set(client.search_all_companies(name, progress=False).to_dataframe()["company_id"])
    completed = client.autocomplete_companies(name[:AUTOCOMPLETE_MAX_LENGTH])
    assert company_id in [r["company_id"] for r in completed.results]
    assert real.counter.count(path="/v1/search/company") == 2


@pytest.mark.parametrize("search", ["search_companies", "search_persons", "search_insolvencies"])
def test_a_query_at_the_limit_is_sent(client: Any, search: str) -> None:
    query = " ".join(["gmbh"] * api.MAX_QUERY_TERMS)
    getattr(client, search)(query)
    assert client.sent() == 1


@pytest.mark.parametrize(
    "search", ["search_companies", "search_persons", "search_insolvencies", "search_all_companies"]
)
@pytest.mark.parametrize(
    ("query", "says"),
    [
        (" ".join(["gmbh"] * (api.MAX_QUERY_TERMS + 1)), f"query has {api.MAX_QUERY_TERMS + 1} search terms"),
        ("/".join(["12"] * (api.MAX_QUERY_TERMS + 1)), f"query has {api.MAX_QUERY_TERMS + 1} search terms"),
        ("x" * (api.MAX_QUERY_LENGTH + 1), f"query is {api.MAX_QUERY_LENGTH + 1:,} characters long"),
    ],
)
def test_a_query_past_the_limit_is_refused_before_sending(client: Any, search: str, query: str, says: str) -> None:
    with pytest.raises(ValidationError) as raised:
        getattr(client, search)(query)
    assert raised.value.message == says
    suggestion = raised.value.suggestion
    assert f"at most {api.MAX_QUERY_LENGTH} characters and {api.MAX_QUERY_TERMS} search terms" in suggestion
    assert "fewer, distinctive words" in suggestion and suggestion.endswith("nothing was sent")
    assert client.sent() == 0 and client.credits_spent == 0
