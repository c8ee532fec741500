"""Frames of the research endpoints: company and person search results, owners, holdings, persons and their
positions — dtypes exactly as each docstring documents them, and one share scale (a fraction) everywhere."""

from __future__ import annotations

import inspect
import re
import warnings
from typing import Any

import pandas as pd
import pytest

import regkit
from regkit.frames import (
    OWNERSHIP_COLUMNS,
    company_search_results,
    holdings,
    management_positions,
    owners,
    person_card_html,
    person_search_results,
    persons,
)

pytestmark = pytest.mark.slow

UUID = "9922b97a-9c35-4d0b-8d2b-3908753a84b7"
COMPANY = "DE-HRB-B1234-1"


def _owner(**extra: Any) -> dict[str, Any]:
    owner = {
        "id": UUID,
        "name": "Ida Roth",
        "type": "natural_person",
        "relation_type": "shareholder",
        "nominal_share": 1340.0,
        "percentage_share": 5.36,
        "start": "2019-04-01",
        "legal_person": None,
        "natural_person": {
            "first_name": "Ida",
            "last_name": "Roth",
            "full_name": "Ida Roth",
            "city": "Kassel",
            "country": "DE",
            "date_of_birth": "1970-05-04",
        },
    }
    owner.update(extra)
    return owner


def _owners(*items: dict[str, Any]) -> dict[str, Any]:
    return {"company_id": COMPANY, "best_available": False, "owners": list(items), "sources": []}


def _holding(**extra: Any) -> dict[str, Any]:
    holding = {
        "company_id": COMPANY,
        "name": "Roth GmbH",
        "relation_type": "shareholder",
        "nominal_share": 1340.0,
        "percentage_share": 0.0536,
        "start": "2019-04-01",
        "end": None,
    }
    holding.update(extra)
    return holding


PERSON = {
    "id": UUID,
    "first_name": "Ida",
    "last_name": "Roth",
    "city": "Kassel",
    "date_of_birth": "1970-05-04",
    "age": 56,
    "management_positions": [
        {
            "company_name": "Roth GmbH",
            "register_id": COMPANY,
            "role": "DIRECTOR",
            "start_date": "2019-04-01",
            "end_date": None,
        },
        {
            "company_name": "Alt AG",
            "register_id": "DE-HRB-B1234-2",
            "role": "PROKURA",
            "start_date": "2001-01-01",
            "end_date": "2005-01-01",
        },
    ],
}
COMPANY_RESULT = {
    "company_id": COMPANY,
    "name": "Roth GmbH",
    "legal_form": "gmbh",
    "register_court": "Kassel",
    "register_number": "1",
    "register_type": "HRB",
    "active": True,
    "country": "DE",
    "purpose": None,
    "address": None,
}
PERSON_RESULT = {"id": UUID, "name": "Ida Roth", "city": None, "date_of_birth": "1970-05-04", "active": False}

BUILT = {
    owners: _owners(
        _owner(),
        _owner(
            id=None,
            percentage_share=None,
            natural_person=None,
            type="legal_person",
            legal_person={"name": "X AG", "city": None, "country": "DE"},
            start=None,
        ),
    ),
    holdings: {"person_id": UUID, "holdings": [_holding(), _holding(end="2020-01-01", percentage_share=None)]},
    company_search_results: {"results": [COMPANY_RESULT], "pagination": {}},
    person_search_results: [PERSON_RESULT],
    persons: PERSON,
    management_positions: PERSON,
}

#: Columns a builder adds only when given the keyword of the same name.
OPTIONAL_COLUMNS: dict[Any, tuple[str, ...]] = {company_search_results: ("holdings_cached",)}

_DTYPE_WORDS = {
    "str": "str",
    "category": "category",
    "Float64": "Float64",
    "Int64": "Int64",
    "int64": "int64",
    "bool": "bool",
    "datetime64[us]": "datetime64[us]",
}


def documented_dtypes(function: Any) -> dict[str, str]:
    """Column → dtype as the Returns table of ``function``'s docstring states them."""
    returns = inspect.getdoc(function).split("Returns", 1)[1].split("Examples", 1)[0]
    table: dict[str, str] = {}
    for line in returns.splitlines():
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) >= 2 and cells[1] in _DTYPE_WORDS:
            for name in cells[0].split(","):
                table[name.strip()] = _DTYPE_WORDS[cells[1]]
    return table


@pytest.mark.parametrize("function", list(BUILT), ids=lambda f: f.__name__)
def test_columns_and_dtypes_are_exactly_the_documented_ones(function: Any) -> None:
    documented = documented_dtypes(function)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for frame in (function(BUILT[function]), function([])):
            expected = {c: t for c, t in documented.items() if c not in OPTIONAL_COLUMNS.get(function, ())}
            assert list(frame.columns) == list(expected), function.__name__
            assert {c: str(t) for c, t in frame.dtypes.items()} == expected
        for column in OPTIONAL_COLUMNS.get(function, ()):  # documented as added by a keyword of the same name
            for frame in (function(BUILT[function], **{column: []}), function([], **{column: ["DE-HRB-B1234-1"]})):
                assert list(frame.columns) == list(documented)
                assert {c: str(t) for c, t in frame.dtypes.items()} == documented


def test_every_builder_is_exported() -> None:
    for function in [*BUILT, person_card_html]:
        assert getattr(regkit.frames, function.__name__) is function


def test_one_share_scale_a_fraction_in_both_frames() -> None:
    own = owners(_owners(_owner(), _owner(id="DE-HRB-B1234-9", percentage_share=100.0)))
    held = holdings({"person_id": UUID, "holdings": [_holding()]})
    assert own["share"].tolist() == [0.0536, 1.0] and own["nominal_share"].tolist() == [1340.0, 1340.0]
    assert held["share"].tolist() == [0.0536]
    assert own.loc[0, "share"] == held.loc[0, "share"]  # the same stake seen from both sides
    assert owners(_owners(_owner(percentage_share=None)))["share"].isna().all()  # null stays null, never 0
    edges = pd.concat([own[list(OWNERSHIP_COLUMNS)], held[list(OWNERSHIP_COLUMNS)]], ignore_index=True)
    assert str(edges["share"].dtype) == "Float64" and edges["share"].between(0, 1).all()
    for function in (owners, holdings):
        assert "fraction" in inspect.getdoc(function)


def test_holdings_of_a_company_and_of_a_person_say_who_holds() -> None:
    of_company = holdings({"company_id": "DE-HRB-B1234-9", "holdings": [_holding()]})
    of_person = holdings({"person_id": UUID, "holdings": [_holding(end="2020-01-01")]})
    assert of_company.loc[0, ["holder_id", "holder_type"]].tolist() == ["DE-HRB-B1234-9", "legal_person"]
    assert of_person.loc[0, ["holder_id", "holder_type", "is_current"]].tolist() == [UUID, "natural_person", False]
    assert of_person.loc[0, "end"] == pd.Timestamp("2020-01-01")


def test_persons_count_positions_and_positions_list_them() -> None:
    assert persons(PERSON).loc[0, ["positions", "current_positions", "age"]].tolist() == [2, 1, 56]
    positions = management_positions(PERSON)
    assert positions["company_id"].tolist() == [COMPANY, "DE-HRB-B1234-2"]
    assert positions["is_current"].tolist() == [True, False]


@pytest.mark.parametrize(
    ("function", "payload", "member"),
    [
        (owners, {"company_id": COMPANY, "best_available": False, "owners": [{"name": "x"}]}, "type"),
        (holdings, {"company_id": COMPANY}, "holdings"),
        (management_positions, {"id": UUID, "first_name": "a", "last_name": "b"}, "management_positions"),
        (company_search_results, [{"company_id": COMPANY}], "name"),
    ],
)
def test_a_missing_member_is_named(function: Any, payload: Any, member: str) -> None:
    with pytest.raises(ValueError, match=f"lacks the required member '{member}'"):
        function(payload)


def test_person_card_escapes_and_counts() -> None:
    card = person_card_html({**PERSON, "last_name": "<script>alert(1)</script>"})
    assert "<script>" not in card and "&lt;script&gt;" in card
    assert "Roth GmbH" in card and "1 past position" in card and "Alt AG" not in card


def test_records_offer_the_frames(isolated_env: Any) -> None:
    """Through the client: each record's ``to_dataframe`` is its builder's frame, and a holding's share equals
    the share of the same stake among the held company's owners — for every holding of one holder."""
    from regkit.local.world import read_world

    world = read_world()
    holder = next(
        r["holder_id"]
        for r in world.shareholdings
        if r["holder_type"] == "legal_person"
        and r["end"] is None
        and world.companies[r["company_id"]]["legal_form"] == "gmbh"
    )
    with regkit.Client(cache="memory") as client:
        record = client.get_holdings(holder)
        held = record.to_dataframe()
        pd.testing.assert_frame_equal(held, holdings(record.raw))
        for row in held[held["is_current"]].itertuples():
            own = client.get_owners(row.company_id, best_available=True).to_dataframe().set_index("holder_id")
            assert own.loc[holder, "share"] == row.share
            stake = next(
                s
                for s in world.shareholdings
                if (s["company_id"], s["holder_id"], s["end"]) == (row.company_id, holder, None)
            )
            assert row.share == pytest.approx(stake["share"], abs=1e-12)
        page = client.search_companies("holding", per_page=3)
        marked = company_search_results(page.raw, holdings_cached=page.holdings_cached)
        pd.testing.assert_frame_equal(page.to_dataframe(), marked)
        person = client.get_person(next(p["id"] for p in client.search_persons(per_page=1)))
        pd.testing.assert_frame_equal(person.to_dataframe(), management_positions(person.raw))
