"""The search indexes on disk: built once into a file, opened read-only, answering as the in-memory ones.

Each index (companies, insolvencies, persons) is written with ``build(path, rows)`` and read with ``open(path)``.
The answers are compared with the in-memory index over the bundled world for a set of queries, and the company
answers also with the brute-force oracle of ``company_search_support.py`` (the world's records and the spec).
A truncated file (a real copy cut short) is refused with an error naming the file; a build that fails leaves
no file behind, and an earlier file in place.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import re
import shutil
import sqlite3
import weakref

import pytest
from company_search_support import CompanyOracle

from regkit.local.register import open_local_register
from regkit.local.search import company_index, company_terms, person_index
from regkit.local.search.build import record_row
from regkit.local.search.company_columns import _ColumnBuilder
from regkit.local.search.company_index import CompanyIndex, CompanyRowStage
from regkit.local.search.company_request import parse_company_search
from regkit.local.search.company_rows import company_row
from regkit.local.search.index import InsolvencyIndex
from regkit.local.search.index_file import IndexFileError
from regkit.local.search.index_files import INDEX_FILES, build_search_indexes, open_search_indexes
from regkit.local.search.person_index import PersonIndex
from regkit.local.search.person_request import parse_person_search
from regkit.local.search.person_rows import Person
from regkit.local.search.request import parse_search_request

pytestmark = pytest.mark.slow

COMPANY_QUERIES = [
    None,
    "müller",
    "Mueller",
    "gmbh",
    "g",
    "co kg",
    "bau gmbh",
    "hamburg",
    "handel",
    "servi",
    "management gm",
    "josé",
    "zzzzqx",
]
COMPANY_FILTERS = [
    [],
    [{"field": "legal_form", "values": ["gmbh", "kg"]}],
    [{"field": "status", "value": "active"}, {"field": "incorporated_at", "min": "2000-01-01"}],
    [{"field": "city", "keywords": ["berg"]}],
    [{"field": "address", "keywords": ["str"]}, {"field": "capital_amount", "min": "25000"}],
    [{"field": "industry_codes", "value": "G"}, {"field": "had_insolvency", "value": "false"}],
    [{"field": "register_court", "value": "Amtsgericht München"}],
    [{"field": "revenue", "min": "1000000"}, {"field": "has_lei", "value": "true"}],
]


def open_cases(world) -> set[str]:
    return {p["company_id"] for p in world.insolvencies.values() if p.get("company_id") and p["has_open_insolvency"]}


def company_rows_of(world):
    cases = open_cases(world)
    return (company_row(c, open_insolvency=c["id"] in cases) for c in world.companies.values())


@pytest.fixture(scope="module")
def company_files(catalog, tmp_path_factory):
    path = tmp_path_factory.mktemp("index") / "companies.sqlite"
    CompanyIndex.build(path, company_rows_of(catalog.world))
    on_disk, in_memory = CompanyIndex.open(path), CompanyIndex.in_memory(company_rows_of(catalog.world))
    yield path, on_disk, in_memory
    on_disk.close()
    in_memory.close()


def test_the_company_file_answers_as_the_in_memory_index_and_the_oracle(catalog, company_files):
    _, on_disk, in_memory = company_files
    oracle = CompanyOracle(catalog.world)
    for query, filters in itertools.product(COMPANY_QUERIES, COMPANY_FILTERS):
        body = {"filters": filters, "pagination": {"per_page": 100}}
        if query is not None:
            body["query"] = query
        results, total = on_disk.search(parse_company_search(body))
        assert (results, total) == in_memory.search(parse_company_search(body)), (query, filters)
        if query == "josé":
            continue  # FTS5 removes diacritics the spec's folding keeps (é): the oracle does not know it
        expected = oracle.search(query, filters)
        assert total == len(expected), (query, filters)
        assert [r["company_id"] for r in results] == expected[:100], (query, filters)


def test_the_company_columns_read_in_small_chunks_answer_as_the_oracle(catalog, company_files, monkeypatch):
    """The filter columns are read a chunk of rows at a time, and a column's array is made only when a second value
    appears: with chunks of 7 companies (most columns start with a run of one value, then change), every filter
    still answers as the oracle says, and the stored columns are those of the index read in big chunks."""
    path, _, _ = company_files
    monkeypatch.setattr(company_index, "_CHUNK", 7)
    chunked = CompanyIndex.in_memory(company_rows_of(catalog.world))
    oracle = CompanyOracle(catalog.world)
    try:
        for filters in COMPANY_FILTERS:
            results, total = chunked.search(parse_company_search({"filters": filters, "pagination": {"per_page": 100}}))
            expected = oracle.search(None, filters)
            assert total == len(expected), filters
            assert [r["company_id"] for r in results] == expected[:100], filters
        with contextlib.closing(sqlite3.connect(path)) as whole, chunked.connection() as small:
            for table in ("company_columns", "company_labels", "company_text"):
                query = f"SELECT * FROM {table} ORDER BY 1"
                assert small.execute(query).fetchall() == whole.execute(query).fetchall(), table
    finally:
        chunked.close()


def test_a_column_read_in_chunks_is_made_when_its_second_value_appears():
    size = 6
    chunks = [[None, None], [None, "b"], ["a", None]]  # one value for two chunks, then three
    coded = _ColumnBuilder("city_key", size)
    flags = _ColumnBuilder("has_lei", size)
    numbers = _ColumnBuilder("revenue", size)
    days = _ColumnBuilder("incorporated_at", size)
    start = 0
    for chunk in chunks:
        coded.add(start, chunk)
        flags.add(start, [value == "a" for value in chunk])
        numbers.add(start, [None] * len(chunk))
        days.add(start, ["2020-01-02"] * len(chunk))
        start += len(chunk)
    assert coded.array().tolist() == [-1, -1, -1, 1, 0, -1] and coded.labels == ["a", "b"]
    assert flags.array().tolist() == [False, False, False, False, True, False]
    assert numbers.array() is None  # a number column without any value is not stored
    assert days.array().tolist() == [20200102] * size
    short = _ColumnBuilder("zip", size)
    short.add(0, ["79098"] * 4)
    with pytest.raises(ValueError, match="4 values for the column zip of 6 companies"):
        short.array()


def test_the_company_file_pages_and_completes_as_the_in_memory_index(catalog, company_files):
    _, on_disk, in_memory = company_files
    for page in (1, 2, 7, 10_000):
        for query in (None, "gmbh", "m", "berlin"):
            body = {"pagination": {"page": page, "per_page": 25}} | ({"query": query} if query else {})
            assert on_disk.search(parse_company_search(body)) == in_memory.search(parse_company_search(body))
    company = next(iter(catalog.world.companies.values()))
    for text in ("mü", "gm", "schmidt b", company["name"]["name"][:9], company["register"]["register_number"]):
        assert on_disk.autocomplete(text, 10) == in_memory.autocomplete(text, 10), text
    number = company["register"]["register_number"]
    found, total = on_disk.search(parse_company_search({"query": number}))
    assert company["id"] in [r["company_id"] for r in found]
    found, _ = on_disk.search(parse_company_search({"filters": [{"field": "register_number", "value": number}]}))
    assert company["id"] in [r["company_id"] for r in found]


def test_rows_staged_in_many_files_answer_as_the_index_built_from_the_rows(catalog, company_files, tmp_path):
    """Eleven stage files (more than SQLite attaches at once), the rows dealt out round robin, and a second row of
    one id in another file with a later line and another name: the staged index answers as the one built from the
    rows, and the second row is indexed by no search."""
    _, on_disk, _ = company_files
    rows = list(company_rows_of(catalog.world))
    stages = [CompanyRowStage(tmp_path / f"stage-{i}.sqlite") for i in range(11)]
    for number, row in enumerate(rows):
        stages[number % 11].add([(number, row)])
    twin = rows[3]._replace(name="zweitschrift dublette", result=rows[3].result.replace('"name"', '"nom"'))
    stages[5].add([(len(rows) + 1, twin)])
    for stage in stages:
        stage.close()
    path = tmp_path / "staged.sqlite"
    CompanyIndex.build_staged(path, [stage.path for stage in reversed(stages)])
    staged = CompanyIndex.open(path)
    try:
        assert staged.size == on_disk.size == len(rows)
        for query, filters in itertools.product(COMPANY_QUERIES, COMPANY_FILTERS[:3]):
            body = {"filters": filters, "pagination": {"per_page": 100}} | ({"query": query} if query else {})
            request = parse_company_search(body)
            assert staged.search(request) == on_disk.search(request), (query, filters)
        assert staged.search(parse_company_search({"query": "zweitschrift"})) == ([], 0)
    finally:
        staged.close()


def test_bitmaps_read_by_threads_are_those_read_in_order(catalog, tmp_path):
    """A staged build reads the bitmaps of the common words and prefixes in threads, a batch at a time, each on a
    connection of its own: with words common enough for several batches, the stored words and bitmaps (in their
    order) are those one connection reads in order, and a search that uses them answers alike."""
    rows = list(company_rows_of(catalog.world))
    stages = [CompanyRowStage(tmp_path / f"stage-{i}.sqlite") for i in range(3)]
    for number, row in enumerate(rows):
        stages[number % 3].add([(number, row)])
    for stage in stages:
        stage.close()
    threaded, in_order = tmp_path / "threaded.sqlite", tmp_path / "in-order.sqlite"
    CompanyIndex.build_staged(threaded, [stage.path for stage in stages], dense_min=20)
    CompanyIndex.build(in_order, rows, dense_min=20)
    tables = {}
    for path in (threaded, in_order):
        conn = sqlite3.connect(path)
        try:
            tables[path] = [
                conn.execute("SELECT * FROM company_terms ORDER BY term").fetchall(),
                conn.execute("SELECT rowid, * FROM company_bitmaps ORDER BY rowid").fetchall(),
            ]
        finally:
            conn.close()
    _, bitmaps = tables[threaded]
    assert len(bitmaps) > 3 * company_terms.BITMAP_BATCH  # several batches, the last one short
    assert len(bitmaps) % company_terms.BITMAP_BATCH != 0
    assert any(any(name) for _, _, name, _ in bitmaps)
    assert tables[threaded] == tables[in_order]
    with contextlib.closing(CompanyIndex.open(threaded)) as index:
        request = parse_company_search({"query": "gmbh", "pagination": {"per_page": 100}})
        results, total = index.search(request)
    assert total > 100 and results[0]["company_id"]
    assert not list(tmp_path.glob(".*"))  # no scratch or temporary file left


def test_nothing_staged_is_an_empty_index(tmp_path):
    path = tmp_path / "empty.sqlite"
    CompanyIndex.build_staged(path, [])
    index = CompanyIndex.open(path)
    try:
        assert index.size == 0
        assert index.search(parse_company_search({"query": "gmbh"})) == ([], 0)
    finally:
        index.close()


def test_a_former_name_finds_its_company_in_the_file(catalog, company_files):
    _, on_disk, _ = company_files
    company = next(
        c for c in catalog.world.companies.values() if any(n["name"] != c["name"]["name"] for n in c["names"])
    )
    former = next(n["name"] for n in company["names"] if n["name"] != company["name"]["name"])
    found = []
    page = 1
    while True:
        results, total = on_disk.search(parse_company_search({"query": former, "pagination": {"page": page}}))
        found += [r["company_id"] for r in results]
        if page * 10 >= total:
            break
        page += 1
    assert company["id"] in found


def test_opening_a_company_file_reads_no_column(company_files):
    path, _, _ = company_files
    index = CompanyIndex.open(path)
    try:
        assert index.columns._cache == {} and index._id_order is None  # nothing read yet
        index.search(parse_company_search({"filters": [{"field": "status", "value": "active"}]}))
        assert list(index.columns._cache) == ["status"]
    finally:
        index.close()


INSOLVENCY_BODIES = [
    {},
    {"query": "gmbh"},
    {"query": "müller"},
    {"query": "m"},
    {"query": "amtsgericht in"},
    {"filters": [{"field": "current_status", "value": "opened"}]},
    {"query": "gmbh", "filters": [{"field": "debtor_kind", "value": "legal_person"}]},
    {"filters": [{"field": "city", "keywords": ["berg"]}, {"field": "opened_at", "min": "2020-01-01"}]},
    {"pagination": {"page": 3, "per_page": 50}},
]


def test_the_insolvency_file_answers_as_the_in_memory_index(catalog, tmp_path):
    rows = [record_row(i + 1, p) for i, p in enumerate(catalog.world.insolvencies.values())]
    InsolvencyIndex.build(tmp_path / "insolvencies.sqlite", iter(rows))
    on_disk, in_memory = InsolvencyIndex.open(tmp_path / "insolvencies.sqlite"), InsolvencyIndex.in_memory(rows)
    try:
        assert on_disk.size == len(catalog.world.insolvencies)
        for body in INSOLVENCY_BODIES:
            request = parse_search_request(body)
            assert on_disk.search(request) == in_memory.search(request), body
        assert on_disk.search(parse_search_request({}))[1] == len(catalog.world.insolvencies)
    finally:
        on_disk.close()
        in_memory.close()


def truncated_copy(source, target) -> None:
    """A real copy of ``source`` cut to half its bytes."""
    shutil.copyfile(source, target)
    with open(target, "r+b") as handle:
        handle.truncate(target.stat().st_size // 2)


def test_a_truncated_index_file_is_refused(company_files, tmp_path):
    path, _, _ = company_files
    truncated_copy(path, tmp_path / "cut.sqlite")
    with pytest.raises(IndexFileError, match=r"cut\.sqlite is truncated .*rebuild"):
        CompanyIndex.open(tmp_path / "cut.sqlite")
    with pytest.raises(IndexFileError, match="does not exist"):
        CompanyIndex.open(tmp_path / "missing.sqlite")
    (tmp_path / "text.sqlite").write_text("not an index\n" * 20)
    with pytest.raises(IndexFileError, match="not a search index"):
        CompanyIndex.open(tmp_path / "text.sqlite")
    with pytest.raises(IndexFileError, match="not the search index of insolvencies"):
        InsolvencyIndex.open(path)


def test_a_failed_build_leaves_no_file(catalog, tmp_path):
    class Broken(Exception):
        pass

    def rows_then_failure():
        yield from itertools.islice(company_rows_of(catalog.world), 50)
        raise Broken

    target = tmp_path / "companies.sqlite"
    with pytest.raises(Broken):
        CompanyIndex.build(target, rows_then_failure())
    assert list(tmp_path.iterdir()) == []
    CompanyIndex.build(target, itertools.islice(company_rows_of(catalog.world), 50))
    before = target.read_bytes()
    with pytest.raises(Broken):
        CompanyIndex.build(target, rows_then_failure())
    assert list(tmp_path.iterdir()) == [target] and target.read_bytes() == before
    index = CompanyIndex.open(target)
    try:
        assert index.size == 50
    finally:
        index.close()


# --- persons -------------------------------------------------------------------------------------------------

PERSON_BODIES = [
    {},
    {"query": "müller"},
    {"query": "Mueller"},
    {"query": "m"},
    {"query": "anna m"},
    {"query": "schm"},
    {"query": "zzzzqx"},
    {"filters": [{"field": "city", "value": "Köln"}]},
    {"filters": [{"field": "city", "values": ["koeln", "Berlin", "Hamburg"]}, {"field": "active", "value": "false"}]},
    {"filters": [{"field": "city", "keywords": ["berg"]}]},
    {"filters": [{"field": "city", "keywords": ["-"]}]},
    {"filters": [{"field": "date_of_birth", "min": "1960-01-01", "max": "1969-12-31"}]},
    {"filters": [{"field": "date_of_birth", "max": "1950-06-30"}, {"field": "active", "value": "true"}]},
    {"query": "peter", "filters": [{"field": "date_of_birth", "min": "1970-01-01"}]},
    {"pagination": {"page": 40, "per_page": 100}},
]


def person_oracle(people, body, without_birth=False):
    """Ids of the persons a search must list, in order, computed from the persons' names and details."""
    words = [w for w in re.findall(r"[^\W_]+", spelled(body.get("query") or ""))]
    found = []
    for person in people:
        if person.date_of_birth is None and not without_birth:
            continue
        terms = re.findall(r"[^\W_]+", spelled(f"{person.first_name or ''} {person.last_name or ''}"))
        if not all(
            any(t == w or (i == len(words) - 1 and t.startswith(w)) for t in terms) for i, w in enumerate(words)
        ):
            continue
        if all(person_passes(person, item) for item in body.get("filters", [])):
            key = (spelled(person.last_name), spelled(person.first_name), person.date_of_birth or "", person.id)
            found.append((key, person.id))
    return [person_id for _, person_id in sorted(found)]


def spelled(text):
    text = (text or "").lower()
    for umlaut, plain in (("ä", "a"), ("ö", "o"), ("ü", "u"), ("ß", "s")):
        text = text.replace(umlaut, plain)
    return re.sub(r"ae|oe|ue|ss", lambda m: m.group()[0], text)


def person_passes(person, item):
    if item["field"] == "active":
        return any(p["end_date"] is None for p in person.positions) == (item["value"] == "true")
    born = person.date_of_birth
    if item["field"] == "date_of_birth":
        return born is not None and item.get("min", "0000") <= born <= item.get("max", "9999")
    if "keywords" in item:
        wanted = [w for k in item["keywords"] for w in re.findall(r"[^\W_]+", spelled(k))]
        return all(w in re.findall(r"[^\W_]+", spelled(person.city)) for w in wanted)
    values = [item["value"]] if "value" in item else item["values"]
    return person.city is not None and spelled(person.city).strip() in {spelled(v).strip() for v in values}


@pytest.fixture(scope="module")
def person_files(catalog, tmp_path_factory):
    path = tmp_path_factory.mktemp("persons") / "persons.sqlite"
    PersonIndex.build(path, iter(catalog.people.values()))
    on_disk, in_memory = PersonIndex.open(path), PersonIndex.in_memory(catalog.people.values())
    yield path, on_disk, in_memory
    on_disk.close()
    in_memory.close()


@pytest.mark.parametrize("without_birth", [False, True])
def test_the_person_file_answers_as_the_in_memory_index_and_the_oracle(catalog, person_files, without_birth):
    _, on_disk, in_memory = person_files
    people = list(catalog.people.values())
    for body in PERSON_BODIES:
        search = parse_person_search({**body, "pagination": body.get("pagination", {"per_page": 100})})
        results, total = on_disk.search(search, listed_without_birth=without_birth)
        assert (results, total) == in_memory.search(search, listed_without_birth=without_birth), body
        expected = person_oracle(people, body, without_birth)
        first = (search.page - 1) * search.per_page
        assert total == len(expected), body
        assert [r["id"] for r in results] == expected[first : first + search.per_page], body
        for result in results:
            person = catalog.people[result["id"].lower()]
            assert result == {
                "id": person.id,
                "name": person.name,
                "city": person.city,
                "date_of_birth": person.date_of_birth,
                "active": any(p["end_date"] is None for p in person.positions),
            }
    assert sum(p.date_of_birth is None for p in people) > 0  # the bundled world has persons without one


def test_the_person_columns_streamed_in_small_chunks_answer_as_the_oracle(catalog, monkeypatch):
    """The person index writes its columns (birth, active, city) a chunk of rows at a time: with chunks of 7
    persons, every search of dates of birth, activity and cities still answers as the oracle says."""
    monkeypatch.setattr(person_index, "_CHUNK", 7)
    people = list(catalog.people.values())
    chunked = PersonIndex.in_memory(people)
    try:
        for body in PERSON_BODIES:
            search = parse_person_search({**body, "pagination": {"per_page": 100}})
            results, total = chunked.search(search)
            expected = person_oracle(people, body, False)
            assert total == len(expected), body
            assert [r["id"] for r in results] == expected[:100], body
    finally:
        chunked.close()


def test_a_truncated_person_file_is_refused(person_files, tmp_path):
    path, _, _ = person_files
    truncated_copy(path, tmp_path / "persons.sqlite")
    with pytest.raises(IndexFileError, match="truncated"):
        PersonIndex.open(tmp_path / "persons.sqlite")
    with pytest.raises(IndexFileError, match="not the search index of companies"):
        CompanyIndex.open(path)


def test_a_name_at_thousands_of_companies_is_one_small_row(tmp_path):
    entry = {"company_name": "Vorrat GmbH", "role": "DIRECTOR", "start_date": "2019-01-01", "end_date": None}
    positions = tuple({**entry, "register_id": f"DE-HRB-F1103-{i}"} for i in range(5000))
    founder = Person(
        "00000000-0000-4000-8000-000000000001", "Vera", "Vorrat", "Berlin", None, positions, ("vera", "vorrat")
    )
    PersonIndex.build(tmp_path / "persons.sqlite", [founder])
    index = PersonIndex.open(tmp_path / "persons.sqlite")
    try:
        assert index.search(parse_person_search({"query": "vorrat"})) == ([], 0)  # no date of birth: not listed
        results, total = index.search(parse_person_search({"query": "vorrat"}), listed_without_birth=True)
        assert total == 1 and results == [
            {"id": founder.id, "name": "Vera Vorrat", "city": "Berlin", "date_of_birth": None, "active": True}
        ]
    finally:
        index.close()


def test_the_person_file_holds_one_person_at_a_time_while_it_is_built(catalog, tmp_path):
    """Persons come with all their positions (thousands for a shelf-company founder): the build stages each one as
    it comes and lets it go. Holding a chunk of 20,000 of them took the import's peak to 1.9 GB at 5.4 million
    companies. The file is the same as one built from a list."""
    people = list(catalog.people.values())
    made = freed = most = 0

    def let_go() -> None:
        nonlocal freed
        freed += 1

    def one_at_a_time():
        nonlocal made, most
        for person in people:
            most = max(most, made - freed)  # persons yielded before and still held by the build
            copy = dataclasses.replace(person)  # a new object, referenced only by the build once it is yielded
            weakref.finalize(copy, let_go)
            made += 1
            yield copy

    PersonIndex.build(tmp_path / "streamed.sqlite", one_at_a_time())
    assert len(people) > 100
    assert most <= 1  # the one being staged, at most; a chunk held them all
    PersonIndex.build(tmp_path / "listed.sqlite", people)
    for table in ("persons", "person_columns", "person_cities", "persons_fts_data", "index_meta"):
        with (
            contextlib.closing(sqlite3.connect(tmp_path / "streamed.sqlite")) as streamed,
            contextlib.closing(sqlite3.connect(tmp_path / "listed.sqlite")) as listed,
        ):
            rows = f"SELECT * FROM {table} ORDER BY 1"
            assert streamed.execute(rows).fetchall() == listed.execute(rows).fetchall() != [], table


def test_a_world_without_dates_of_birth_lists_its_persons_with_null(catalog, tmp_path):
    from regkit.local.world.store import read_world

    bundled = read_world()  # the bundled world in memory, its meta changed; the register builds a store for it
    world = dataclasses.replace(bundled, meta={**bundled.meta, "dates_of_birth": False})
    register = open_local_register(world=world, state_path=tmp_path / "state.sqlite", rate_limit=None)
    try:
        session = register.session("demo-paid")
        unborn = next(p for p in catalog.people.values() if p.date_of_birth is None and p.positions)
        body = {"query": unborn.name, "pagination": {"per_page": 100}}
        found = session.post(f"{register.base_url}/v1/search/person", json=body).json()
        listed = {r["id"]: r for r in found["results"]}
        assert listed[unborn.id]["date_of_birth"] is None
        assert found["pagination"]["total_results"] == len(person_oracle(catalog.people.values(), body, True))
    finally:
        register.close()


def test_many_filters_of_one_letter_keywords_answer_as_the_oracle(catalog, company_files):
    """The expensive query of issue 24 (32 filters of one-letter address keywords), with answers to check."""
    _, on_disk, _ = company_files
    oracle = CompanyOracle(catalog.world)
    letter_sets = ["str", "sta", "e", "ra", "w1"]
    filters = [{"field": "address", "keywords": list(letter_sets[i % 5]) * 4} for i in range(32)]
    totals = []
    for extra in ([], [{"field": "address", "keywords": ["ü"] * 10}], [{"field": "city", "keywords": list("bx")}]):
        body = {"filters": filters[: 32 - len(extra)] + extra, "pagination": {"per_page": 100}}
        results, total = on_disk.search(parse_company_search(body))
        expected = oracle.search(None, body["filters"])
        assert total == len(expected) and [r["company_id"] for r in results] == expected[:100]
        totals.append(total)
    assert totals[0] > 0 and len(set(totals)) == 3  # the extra filters narrow the answer


def test_a_worlds_three_indexes_build_and_open_together(catalog, tmp_path):
    world = catalog.world
    build_search_indexes(
        tmp_path, lambda: world.companies.values(), lambda: world.insolvencies.values(), catalog.people.values()
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(INDEX_FILES.values())
    indexes = open_search_indexes(tmp_path)
    try:
        assert indexes.companies.size == len(world.companies)
        assert indexes.insolvencies.size == len(world.insolvencies)
        assert indexes.persons.size == len(catalog.people)
        assert indexes.persons.born == sum(p.date_of_birth is not None for p in catalog.people.values())
    finally:
        indexes.close()
