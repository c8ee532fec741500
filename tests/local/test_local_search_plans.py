"""The search index's plans against a brute-force oracle, on a synthetic index that reaches every plan.

:class:`~regkit.local.search.index.InsolvencyIndex` answers a search by one of several plans (a rowid range,
a filter mask, bitmaps of common words, unions of a prefix's words, FTS5 counting and walking, probing,
reading matches as rows or as one string), chosen by estimates and switch points (:class:`Tuning`). Every
plan must give the oracle's answer: the same proceedings in the same order (``last_event_at`` descending,
nulls last, then ``id``) and the exact total. The synthetic world is small, with a skewed vocabulary (common
words, words sharing prefixes, accents) so that each plan is taken; the switch points are varied so that
each plan is taken for the same search.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import threading
import unicodedata
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from local_support import filter_matches

from regkit.local.search.build import record_row
from regkit.local.search.index import InsolvencyIndex, Tuning
from regkit.local.search.query import fold, phrases_of
from regkit.local.search.request import parse_search_request
from regkit.schema.interface import INSOLVENCY_GROUNDS, INSOLVENCY_STATUSES

pytestmark = pytest.mark.slow

SIZE = 3000
FIRST = ["Inge", "Ingrid", "Ina", "Max", "Maria", "Marta", "José", "Émile", "Jörg", "Ute"]
LAST = ["Müller", "Mueller", "Schmidt", "Schneider", "Meyer", "Inan", "Ingwersen", "Gómez", "Zander"]
TRADES = ["Bau", "Handel", "Metallbau", "Software"]
COURTS = ["Amtsgericht Köln", "Amtsgericht Charlottenburg", "Amtsgericht Lübeck", "Amtsgericht Freiburg im Breisgau"]
CITIES = ["Köln", "Berlin", "Lübeck", "Freiburg", None]
COMPANIES = [f"DE-HRB-K{1000 + i}-{i}" for i in range(40)]
TUNINGS = [
    Tuning(),
    Tuning(probe_always=10**9, probe_cost=10**9),  # probe whenever a probe is safe
    Tuning(probe_always=0, probe_cost=0, rows_max=10**9),  # never probe, read matches as rows
    Tuning(probe_always=0, probe_cost=0, rows_max=0),  # never probe, read matches as one string
]
WORDS = [
    "in",
    "i",
    "ing",
    "inge",
    "m",
    "ma",
    "mu",
    "muller",
    "mueller",
    "müll",
    "jose",
    "josé",
    "emile",
    "é",
    "gomez",
    "amtsgericht",
    "amts",
    "koln",
    "köln",
    "rechtsanwalt",
    "gmbh",
    "co",
    "kg",
    "12",
    "in/12",
    "12/in",
    "345/24",
    "bau",
    "metall",
    "zzz",
    "gmbh&co",
    "frei",
    "im",
    "zander",
    "377",
    "37",
    "377/24",
]


def _day(rng: random.Random, start: int = 2010) -> str:
    return (dt.date(start, 1, 1) + dt.timedelta(days=rng.randrange(0, 5000))).isoformat()


def synthetic_proceedings(n: int = SIZE, seed: int = 7) -> list[dict]:
    """``n`` proceedings with a skewed vocabulary (some words in most of them, some in few)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        legal = rng.random() < 0.6
        last = rng.choices(LAST, weights=[30, 5, 10, 8, 6, 2, 2, 2, 1])[0]
        name = (
            f"{last} {rng.choice(TRADES)} GmbH" + (" & Co. KG" if rng.random() < 0.3 else "")
            if legal
            else f"{rng.choice(FIRST)} {last}"
        )
        grounds = None if rng.random() < 0.1 else rng.sample(INSOLVENCY_GROUNDS, rng.randint(0, 2))
        status = rng.choice(INSOLVENCY_STATUSES)
        out.append(
            {
                "id": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                "debtor_name": name,
                "debtor_kind": "legal_person" if legal else "natural_person",
                "debtor_legal_form": "gmbh" if legal else None,
                "case_number": f"{rng.choice([12, 13, 34])} {'IN' if legal else 'IK'} {rng.randrange(1, 400)}/{rng.choice([23, 24])}",
                "court": rng.choice(COURTS),
                "city": rng.choice(CITIES),
                "current_status": status,
                "has_open_insolvency": status in ("preliminary", "opened"),
                "proceeding_kind": rng.choice(["regular_insolvency", "consumer_insolvency", None]),
                "administration_kind": rng.choice(["external_administration", "self_administration", None]),
                "insolvency_grounds": grounds,
                "administrator_name": f"Rechtsanwalt {rng.choice(LAST)}",
                "company_id": rng.choice(COMPANIES) if legal and rng.random() < 0.5 else None,
                "person_id": None,
                "opened_at": _day(rng) if rng.random() < 0.9 else None,
                "closed_at": _day(rng, 2015) if rng.random() < 0.4 else None,
                # few distinct days, so that ties are broken by id
                "last_event_at": None if rng.random() < 0.05 else f"2024-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}",
                "claims_filing_deadline": _day(rng, 2016) if rng.random() < 0.5 else None,
            }
        )
    return out


# --- the oracle ----------------------------------------------------------------------------------------------


def _normal(text: str | None) -> list[str]:
    """Tokens as FTS5 stores them: folded, diacritics removed (``unicode61 remove_diacritics 2``)."""
    decomposed = unicodedata.normalize("NFD", fold(text))
    return re.findall(r"[^\W_]+", "".join(c for c in decomposed if not unicodedata.combining(c)))


def _phrase_in(tokens: list[str], prefix: bool, column: list[str]) -> bool:
    for start in range(len(column) - len(tokens) + 1):
        window = column[start : start + len(tokens)]
        if window[:-1] == tokens[:-1] and (window[-1].startswith(tokens[-1]) if prefix else window[-1] == tokens[-1]):
            return True
    return False


def text_matches(proceeding: dict, query: str) -> bool:
    columns = [_normal(proceeding.get(f)) for f in ("debtor_name", "case_number", "administrator_name", "court")]
    for phrase in phrases_of(query):
        tokens = [t for token in phrase.tokens for t in _normal(token)]
        if tokens and not any(_phrase_in(tokens, phrase.prefix, column) for column in columns):
            return False
    return True


def in_order(proceedings) -> list[str]:
    ordered = sorted(proceedings, key=lambda p: p["id"])
    ordered.sort(key=lambda p: p["last_event_at"] or "", reverse=True)
    return [p["id"] for p in ordered]


FILTERS = [
    {"field": "current_status", "values": ["opened", "preliminary", "lifted"]},
    {"field": "has_open_insolvency", "value": "true"},
    {"field": "has_open_insolvency", "value": "false"},
    {"field": "debtor_kind", "value": "natural_person"},
    {"field": "debtor_legal_form", "value": "gmbh"},
    {"field": "proceeding_kind", "value": "consumer_insolvency"},
    {"field": "insolvency_grounds", "values": ["illiquidity", "over_indebtedness"]},
    {"field": "court", "value": "amtsgericht koeln"},
    {"field": "court", "keywords": ["breisgau"]},
    {"field": "city", "values": ["Lübeck", "Berlin"]},
    {"field": "city", "keywords": ["l"]},
    {"field": "opened_at", "min": "2015-06-01"},
    {"field": "opened_at", "min": "2012-01-01", "max": "2012-03-31"},
    {"field": "closed_at", "max": "2020-12-31"},
    {"field": "last_event_at", "value": "2024-03-13"},
    {"field": "last_event_at", "min": "2024-05-01"},
    {"field": "claims_filing_deadline", "min": "2025-01-01"},
    {"field": "company_id", "values": COMPANIES[:3]},
    {"field": "company_id", "value": COMPANIES[5]},
]


@pytest.fixture(scope="module")
def world():
    proceedings = synthetic_proceedings()
    index = InsolvencyIndex.in_memory((record_row(i + 1, p) for i, p in enumerate(proceedings)), dense_min=1)
    yield proceedings, index
    index.close()


def test_the_synthetic_index_reaches_every_plan(world):
    _, index = world
    vocabulary = index.vocabulary
    assert vocabulary.plan(phrases_of("amtsgericht")).bitmaps == ["amtsgericht"]  # a common word
    assert vocabulary.plan(phrases_of("m")).bitmaps == ["m*"]  # a common initial
    assert vocabulary.plan(phrases_of("in")).unions  # in (common) or inan, ina, inge, ingrid, ingwersen (rare)
    assert vocabulary.plan(phrases_of("zzz")).empty  # a word the index lacks
    rare = vocabulary.plan(phrases_of("377"))  # a case number
    assert rare.fts == '"377"' and rare.estimate and rare.estimate < SIZE // 32
    assert vocabulary.plan(phrases_of("søren")).estimate is None  # a letter FTS5 keeps: no estimate
    assert phrases_of("josé") == phrases_of("jose")  # a letter FTS5 folds is written folded: planned
    assert vocabulary.plan(phrases_of("12/in")).fts == '"12 in"*'  # a phrase stays a phrase


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    words=st.lists(st.sampled_from(WORDS), max_size=3),
    filters=st.lists(st.sampled_from(FILTERS), max_size=3),
    page=st.integers(1, 4),
    per_page=st.integers(1, 60),
    tuning=st.sampled_from(TUNINGS),
)
def test_every_plan_matches_the_oracle(world, words, filters, page, per_page, tuning):
    proceedings, index = world
    query = " ".join(words)
    body = {"query": query, "filters": filters, "pagination": {"page": page, "per_page": per_page}}
    results, total = index.tuned(tuning).search(parse_search_request(body))
    expected = in_order(p for p in proceedings if text_matches(p, query) and all(filter_matches(p, f) for f in filters))
    assert total == len(expected)
    assert [r["id"] for r in results] == expected[(page - 1) * per_page : page * per_page]


def test_results_are_the_stored_proceedings(world):
    proceedings, index = world
    by_id = {p["id"]: p for p in proceedings}
    results, total = index.search(parse_search_request({"pagination": {"per_page": 100}}))
    assert total == SIZE
    assert [r["id"] for r in results] == in_order(proceedings)[:100]
    for result in results:
        stored = by_id[result["id"]]
        assert result == {k: stored[k] for k in result}


def test_a_search_runs_while_another_holds_a_connection(world):
    """Searches do not take turns: with a read transaction open on one connection, another search finishes."""
    _, index = world
    request = parse_search_request({"query": "müller", "filters": [{"field": "has_open_insolvency", "value": "true"}]})
    expected = index.search(request)
    answers = []
    with index.connection() as held:
        held.execute("BEGIN")
        held.execute("SELECT count(*) FROM proceedings").fetchone()  # holds a read snapshot, like a long search
        worker = threading.Thread(target=lambda: answers.append(index.search(request)), daemon=True)
        worker.start()
        worker.join(timeout=60)
        held.execute("COMMIT")
    assert answers == [expected]
