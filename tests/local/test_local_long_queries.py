"""Long queries: a full legal name is one query.

Real names are long: "Friedr. Max Haakh Zweigniederlassung Heilbronn der Firma Emesco Mettenheimer u.
Simon-Collischonn Gesellschaft mit beschränkter Haftung und Co. Kommanditgesellschaft" has 19 search terms, and
with a limit of 10 its search was a 400. The limits (``MAX_QUERY_TERMS`` search terms, ``MAX_QUERY_LENGTH``
characters) are now well above the longest names; past them a search is still a free 400 that says what to do.

Over real HTTP: the companies and persons of the committed OffeneRegister sample, imported into a world and served
over loopback (the expected answers come from the sample's records, read here with ``json``), and the bundled
world's proceedings. Then the plans that keep a long query's work bounded, on in-memory indexes of the bundled
world: spellings FTS5 reads as one word are one word, and a query checks few tokens in sequence.
"""

from __future__ import annotations

import bz2
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from local_support import charged, error_of, session_for

from regkit.client import parse_company_id
from regkit.local import LocalServer, open_local_register
from regkit.local.search.company_index import CompanyIndex
from regkit.local.search.company_request import parse_company_search
from regkit.local.search.company_rows import company_row
from regkit.local.search.company_terms import rowids
from regkit.local.search.query import SEQUENCE_TOKENS, fts_folded, phrases_of, query_terms
from regkit.local.world.offeneregister import import_offeneregister, sample_file
from regkit.schema import load_openapi
from regkit.schema.interface import MAX_QUERY_LENGTH, MAX_QUERY_TERMS
from regkit.schema.research import AUTOCOMPLETE_MAX_LENGTH

pytestmark = pytest.mark.slow

COMPANY, PERSON, INSOLVENCY = "/v1/search/company", "/v1/search/person", "/v1/search/insolvency"
COMPLETE = "/v1/autocomplete/company"
#: A long name: as many search terms as "Raiffeisenbank Mittlerer Schwarzwald eingetragene Genossenschaft mit
#: beschränkter Haftpflicht i.L." has, and more.
LONG = 13


def _id(record: dict[str, Any]) -> str:
    attributes = record["all_attributes"]
    suffix = attributes.get("_registerNummerSuffix", "")
    return parse_company_id(
        f"{attributes['registrar']} {attributes['_registerArt']} {attributes['_registerNummer']} {suffix}".strip()
    )


def _names(record: dict[str, Any]) -> list[str]:
    """The record's current name, then its former names."""
    return [record["name"], *(p["company_name"] for p in record.get("previous_names") or ())]


def _padded(words: str, terms: int) -> str:
    """``words`` repeated until the text has ``terms`` search terms (a repeated word asks for nothing more)."""
    unit = query_terms(words)
    repeated = (unit * (terms // len(unit) + 1))[:terms]
    return " ".join(repeated)


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    with bz2.open(sample_file(), "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@pytest.fixture(scope="module")
def long_names(records: list[dict[str, Any]]) -> list[tuple[str, str, bool]]:
    """``(company id, name, current)`` of every name of the sample with ``LONG`` or more search terms."""
    return [
        (_id(record), name, i == 0)
        for record in records
        for i, name in enumerate(_names(record))
        if len(query_terms(name)) >= LONG
    ]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, LocalServer]]:
    """A register on the imported sample, served over loopback."""
    directory = tmp_path_factory.mktemp("long-names")
    world = import_offeneregister(sample_file(), directory / "world").directory
    register = open_local_register(data_dir=world, state_path=directory / "state.sqlite", rate_limit=None)
    server = LocalServer(register.app).start()
    yield register, server
    server.stop()
    register.close()


@pytest.fixture
def http(served: tuple[Any, LocalServer]) -> Any:
    register, server = served
    return session_for(register, base_url=server.url)


@pytest.fixture
def persons(served: tuple[Any, LocalServer]) -> Any:
    """A session for the person search: in a world without dates of birth its results hold ``date_of_birth: null``,
    which the document's result does not allow (docs/interface.md: a deviation of ours), so no check of the shape."""
    register, server = served
    return session_for(register, base_url=server.url, conform=False)


def test_the_limits_are_above_the_sample_s_longest_names(records: list[dict[str, Any]]) -> None:
    names = [name for record in records for name in _names(record)]
    assert max(len(query_terms(name)) for name in names) == 25  # two OffeneRegister chunks: 69 (528 characters)
    assert max(len(query_terms(name)) for name in names) < MAX_QUERY_TERMS
    assert max(len(name) for name in names) < MAX_QUERY_LENGTH
    # an autocomplete text cannot hold more terms than a search takes: a long name completes like a short one
    assert (AUTOCOMPLETE_MAX_LENGTH + 1) // 2 <= MAX_QUERY_TERMS


def test_every_long_name_finds_its_company(http: Any, long_names: list[tuple[str, str, bool]]) -> None:
    assert len(long_names) >= 40 and max(len(query_terms(name)) for _, name, _ in long_names) == 25
    for company_id, name, current in long_names:
        response = http.post(COMPANY, json={"query": name, "pagination": {"per_page": 100}})
        assert response.status_code == 200 and charged(response) == 10, (name, response.text[:300])
        results = response.json()["results"]
        assert company_id in [r["company_id"] for r in results], name
        if current:  # every word in the current name: it ranks with the matches in current names, first
            assert name in [r["name"] for r in results if r["company_id"] == company_id]


def test_a_long_legal_name_with_common_words_finds_its_company(
    http: Any, records: list[dict[str, Any]], long_names: list[tuple[str, str, bool]]
) -> None:
    # 'Gesellschaft mit beschränkter Haftung und Co. Kommanditgesellschaft': words of thousands of names each
    company_id, name = max(
        ((c, n) for c, n, _ in long_names if "Gesellschaft mit beschränkter Haftung" in n),
        key=lambda found: len(query_terms(found[1])),
    )
    assert len(query_terms(name)) == 19 and name.startswith("Friedr. Max Haakh")
    for query in (name, {"value": name}, name.upper(), name.replace("ä", "ae")):
        response = http.post(COMPANY, json={"query": query})
        assert [r["company_id"] for r in response.json()["results"]] == [company_id]


def test_a_long_name_completes(http: Any, long_names: list[tuple[str, str, bool]]) -> None:
    for company_id, name, current in long_names:
        if not current:
            continue
        text = name[:AUTOCOMPLETE_MAX_LENGTH]
        response = http.get(COMPLETE, params={"query": text})
        assert response.status_code == 200 and charged(response) == 0
        assert company_id in [r["company_id"] for r in response.json()["results"]], text


def test_long_person_names_are_found(persons: Any, records: list[dict[str, Any]]) -> None:
    # officers the source types as persons, whose names hold a place and a register entry (15 search terms)
    names = sorted(
        {
            officer["name"]
            for record in records
            for officer in record.get("officers", ())
            if officer.get("type") == "person" and len(query_terms(officer["name"])) > 10
        }
    )
    assert len(names) >= 2 and max(len(query_terms(name)) for name in names) == 15
    for name in names:
        response = persons.post(PERSON, json={"query": name})
        assert response.status_code == 200, response.text[:300]
        assert name in [r["name"] for r in response.json()["results"]]


def test_a_proceeding_is_found_by_its_whole_heading(remote: Any, catalog: Any) -> None:
    """Debtor, case number, court and administrator, as a publication heads a proceeding: 11 or more terms."""
    proceeding = max(
        (p for p in catalog.world.insolvencies.values() if p.get("administrator_name")),
        key=lambda p: (len(query_terms(p["debtor_name"])), p["id"]),
    )
    heading = " ".join(
        [proceeding["debtor_name"], proceeding["case_number"], proceeding["court"], proceeding["administrator_name"]]
    )
    assert len(query_terms(heading)) > 10
    response = remote().post(INSOLVENCY, json={"query": heading})
    assert response.status_code == 200 and charged(response) == 10
    assert proceeding["id"] in [r["id"] for r in response.json()["results"]]


@pytest.mark.parametrize(
    ("path", "code"), [(COMPANY, "invalid_body"), (PERSON, "invalid_query"), (INSOLVENCY, "invalid_body")]
)
def test_every_search_takes_the_limit_and_refuses_one_term_more(
    http: Any, persons: Any, long_names: list[tuple[str, str, bool]], path: str, code: str
) -> None:
    if path == PERSON:
        http = persons
    # the name of the shortest words ("S t a u f e n W o h n b a u Gesellschaft mit beschränkter Haftung"): 128
    # terms of average words take more than the 1,024 characters
    name = min((n for _, n, _ in long_names), key=lambda n: len(n) / len(query_terms(n)))
    at_limit = _padded(name, MAX_QUERY_TERMS)
    assert len(query_terms(at_limit)) == MAX_QUERY_TERMS and len(at_limit) <= MAX_QUERY_LENGTH
    response = http.post(path, json={"query": at_limit})
    assert response.status_code == 200 and charged(response) == 10, response.text[:300]
    if path == COMPANY:  # every word is one of the name's: its company is found
        assert response.json()["results"]
    before = http.get("/v1/credits").json()["used_credits"]
    past = _padded(name, MAX_QUERY_TERMS + 1)
    response = http.post(path, json={"query": past})
    assert error_of(response) == (400, code) and charged(response) == 0
    assert http.get("/v1/credits").json()["used_credits"] == before
    message = response.json()["error"]["message"]
    assert str(MAX_QUERY_TERMS) in message and len(message) < 300
    if code == "invalid_body":  # says what to do
        assert f"{MAX_QUERY_TERMS + 1} search terms" in message and "fewer, distinctive words" in message


# --- the work of a long query stays bounded ------------------------------------------------------------------

#: A real name (OffeneRegister) with a word of 12 tokens.
WORD_OF_12 = "Verwaltungsgesellschaft M.O.C.H.E.N.W.A.N.G.E.N. Besitz mbH"


@pytest.fixture(scope="module")
def indexes(catalog: Any) -> Iterator[tuple[CompanyIndex, CompanyIndex, str]]:
    """The bundled world's companies, one renamed to :data:`WORD_OF_12`, indexed twice: common words as bitmaps
    (``dense_min`` 40: the plans of a large index) and without bitmaps (FTS5 alone); and the renamed company's id."""
    companies = sorted(catalog.world.companies.values(), key=lambda c: c["id"])
    renamed = {**companies[0], "name": {**companies[0]["name"], "name": WORD_OF_12}}
    renamed["names"] = [renamed["name"]]
    rows = [company_row(c, open_insolvency=False) for c in [renamed, *companies[1:]]]
    planned, plain = CompanyIndex.in_memory(rows, dense_min=40), CompanyIndex.in_memory(rows, dense_min=10**9)
    yield planned, plain, renamed["id"]
    planned.close()
    plain.close()


def _all(index: CompanyIndex, query: str) -> tuple[list[str], int]:
    results, total = index.search(parse_company_search({"query": query, "pagination": {"per_page": 100}}))
    return [r["company_id"] for r in results], total


def _spellings(words: list[str]) -> list[str]:
    """Spellings FTS5 reads as ``words`` (an accented vowel: ``hàndel`` is ``handel``), every one once."""
    accents = {"a": "àáâã", "e": "èéêë", "i": "ìíîï", "o": "òóôõ", "u": "ùúûũ"}
    return [f"{w[:i]}{a}{w[i + 1 :]}" for w in words for i, letter in enumerate(w) for a in accents.get(letter, "")]


def test_spellings_fts5_reads_as_one_word_are_one_word(indexes: tuple[CompanyIndex, CompanyIndex, str]) -> None:
    """36 spellings of three common words are three words: three bitmaps, not 36 passes of FTS5 over their matches
    (64 spellings took 0.5 s over a million companies)."""
    planned, plain, _ = indexes
    words = ["handel", "service", "management"]
    spellings = _spellings(words)
    query = " ".join(spellings)
    assert len(query_terms(query)) == len(spellings) == 36 and len(query) <= MAX_QUERY_LENGTH
    assert [p.tokens for p in phrases_of(query)] == [(w,) for w in words]  # one phrase a word, not a spelling
    with planned.connection() as conn:
        plan = planned.terms.plan(conn, phrases_of(query))
    assert sorted(plan.dense) == sorted(words) and not plan.phrases and not plan.unions
    assert _all(planned, query) == _all(plain, query) == _all(planned, f"{' '.join(words)} management")
    with plain.connection() as conn:  # FTS5 itself reads each spelling as its word
        for spelling in spellings:
            word = next(w for w in words if len(w) == len(spelling) and fts_folded(spelling) == w)
            assert np.array_equal(rowids(conn, f'"{spelling}"'), rowids(conn, f'"{word}"')), spelling


def test_a_query_checks_few_tokens_in_sequence(indexes: tuple[CompanyIndex, CompanyIndex, str]) -> None:
    """FTS5 checks a phrase token by token in every name holding its tokens: a query checks at most
    SEQUENCE_TOKENS in sequence (as many as the old limit of 10 terms allowed); the words past them match token by
    token, so a company is never missed."""
    planned, plain, renamed = indexes
    periodic = "/".join(["gmbh", "co", "kg"] * (MAX_QUERY_TERMS // 3))  # one word of 126 common tokens
    assert len(query_terms(periodic)) > 120 and [p.tokens for p in phrases_of(periodic)] == [
        ("gmbh",),
        ("co",),
        ("kg",),
    ]
    pairs = " ".join(f"{a}/{b}" for a, b in itertools.permutations(["gmbh", "co", "kg", "e", "v", "i", "l"], 2))
    assert len(query_terms(pairs)) <= MAX_QUERY_TERMS
    in_sequence = sum(len(p.tokens) for p in phrases_of(pairs) if len(p.tokens) > 1)
    assert in_sequence == SEQUENCE_TOKENS  # five pairs in sequence, the other 37 token by token
    for query in (periodic, pairs, WORD_OF_12, WORD_OF_12.replace(" ", " Dr.med. ")):
        assert _all(planned, query) == _all(plain, query), query
    # the real name with a word of 12 tokens: found by its whole name, and first (every word in its current name)
    found, total = _all(planned, WORD_OF_12)
    assert found[:1] == [renamed] and total == 1
    assert _all(planned, "M.O.C.H.E.N.W.A.N.G.E.N.")[0][:1] == [renamed]


def test_the_documents_state_the_limits() -> None:
    """openapi.json and docs/interface.md say the limits the code enforces (one source: regkit.schema.interface)."""
    document = load_openapi()
    schemas = document["components"]["schemas"]
    for name in ("InsolvencySearchRequest", "CompanySearchRequest", "PersonSearchRequest"):
        query = schemas[name]["properties"]["query"]
        assert query["x-regkit-max-terms"] == MAX_QUERY_TERMS
        assert query["oneOf"][0]["maxLength"] == query["oneOf"][1]["properties"]["value"]["maxLength"]
        assert query["oneOf"][0]["maxLength"] == MAX_QUERY_LENGTH
        stated = f"At most {MAX_QUERY_LENGTH} characters and at most {MAX_QUERY_TERMS} search terms"
        assert stated in query["description"], name
        if name != "PersonSearchRequest":
            assert f"for the first {SEQUENCE_TOKENS} such terms of a query" in query["description"]
            assert (
                f"`query` at most {MAX_QUERY_LENGTH} characters and {MAX_QUERY_TERMS} search terms"
                in (schemas[name]["description"])
            )
    refused = document["paths"]["/v1/search/insolvency"]["post"]["responses"]["400"]["description"]
    assert f"query longer than {MAX_QUERY_LENGTH} characters or {MAX_QUERY_TERMS} search terms" in refused
    completes = next(
        p for p in document["paths"]["/v1/autocomplete/company"]["get"]["parameters"] if p["name"] == "query"
    )
    assert f"within a search's limit of {MAX_QUERY_TERMS}" in completes["description"]
    page = (Path(__file__).resolve().parents[2] / "docs" / "interface.md").read_text(encoding="utf-8")
    assert f"At most {MAX_QUERY_LENGTH} characters and {MAX_QUERY_TERMS} search terms" in page
    assert f"for the first {SEQUENCE_TOKENS} such terms of a query" in page
    assert "10 search terms" not in page and "more than any name" not in page
