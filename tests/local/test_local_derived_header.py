"""``X-Regkit-Derived``: the members of a company record an imported world derived, sent with the company lookup.

The header's grammar (:mod:`regkit.schema.derived`) round-trips any list of member paths; the local register on a
world imported from the committed OffeneRegister sample sends, for each company, exactly the members
``derived.jsonl.gz`` lists (read here), and nothing on errors; the client reads an unreadable header as no marks,
saying so.
"""

from __future__ import annotations

import gzip
import json
import logging
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regkit.client.company import derived_members
from regkit.client.transport.operation import Answer, Operation
from regkit.local import open_local_register
from regkit.local.world.offeneregister import import_offeneregister, sample_file
from regkit.schema.derived import HEADER, MAX_MARKS, format_marks, is_derived, parse_marks

_NAMES = st.sampled_from(["incorporated_at", "names", "address", "representation", "start_date", "id", "city"])
_STEP = st.tuples(_NAMES, st.one_of(st.none(), st.integers(0, 300)))
_MEMBERS = st.lists(st.lists(_STEP, min_size=1, max_size=3), max_size=40)


def _path(steps: list[tuple[str, int | None]]) -> str:
    return ".".join(name if index is None else f"{name}[{index}]" for name, index in steps)


@given(_MEMBERS)
def test_the_header_stands_for_exactly_the_members_written(paths) -> None:
    members = [_path(steps) for steps in paths]
    text = format_marks(members)
    assert parse_marks(text) == frozenset(members)
    assert text.isascii() and " " not in text and len(text) <= sum(len(m) + 1 for m in members)


def test_indices_of_one_member_are_written_as_ranges() -> None:
    members = [f"representation[{i}].start_date" for i in (7, 0, 1, 2, 3, 5, 9, 10)] + ["incorporated_at"]
    assert format_marks(members) == "representation[0-3,5,7,9-10].start_date,incorporated_at"
    assert format_marks([]) == "" and parse_marks("") == frozenset() and parse_marks(None) == frozenset()


@pytest.mark.parametrize(
    "text",
    ["a,", ",a", "a b", "a[", "a[]", "a[1-]", "a[3-1]", "a..b", "1a", f"a[0-{MAX_MARKS}]", "a[0,1].b[2,3]"],
)
def test_a_malformed_header_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match=HEADER):
        parse_marks(text)


def test_a_member_without_an_index_marks_every_entry() -> None:
    marks = parse_marks("names.start_date,representation[4].start_date")
    assert is_derived(marks, "names[0].start_date") and is_derived(marks, "names[12].start_date")
    assert is_derived(marks, "names.start_date") and not is_derived(marks, "name.start_date")
    assert is_derived(marks, "representation[4].start_date") and not is_derived(marks, "representation[3].start_date")
    assert not is_derived(frozenset(), "incorporated_at")


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return import_offeneregister(sample_file(), tmp_path_factory.mktemp("header") / "world", workers=0).directory


@pytest.mark.slow
def test_every_company_is_sent_with_its_derived_members(imported: Path) -> None:
    with gzip.open(imported / "derived.jsonl.gz", "rt", encoding="utf-8") as handle:
        rows = {row["id"]: row["derived"] for row in map(json.loads, handle)}
    register = open_local_register(data_dir=imported, rate_limit=0, realtime_latency=0.0)
    session = register.session(register.default_api_key)
    sizes = []
    for number, (company_id, members) in enumerate(sorted(rows.items())):
        query = ("", "?export=true", "?realtime=true")[number % 3]  # an imported world has no realtime records
        answer = session.get(f"{register.base_url}/v1/company/{company_id}{query}")
        assert answer.status_code == 200, answer.text
        assert parse_marks(answer.headers[HEADER]) == frozenset(members), company_id
        sizes.append(len(answer.headers[HEADER]))
    assert max(sizes) < 1024  # the sample's longest (a company with many officers without a start date)
    for path in ("/v1/company/DE-HRB-B1234-99999999", "/v1/company/not-an-id"):
        answer = session.get(f"{register.base_url}{path}")
        assert answer.status_code in (400, 404) and HEADER not in answer.headers


def test_an_unreadable_header_leaves_no_marks_and_says_so(caplog) -> None:
    op = Operation("get_company", "GET", "/v1/company/DE-HRB-B1234-1")
    answer = Answer({"id": "DE-HRB-B1234-1"}, 200, "network", datetime.now(timezone.utc), 10, "incorporated_at,,x")
    with caplog.at_level(logging.WARNING):
        assert derived_members(op, answer) == frozenset()
    assert HEADER in caplog.text and "DE-HRB-B1234-1" in caplog.text
    assert derived_members(op, Answer({}, 200, "cache", datetime.now(timezone.utc), 0)) == frozenset()
